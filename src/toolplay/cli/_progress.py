"""The progress of a run on stderr: a live bar in a terminal, plain lines in a log.

In a terminal the bar shows finished/total trials, the rate and the time left. When stderr
is not a terminal (a CI log, `2> run.log`) it prints one plain line, without control codes,
each time another `step` percent of the trials has finished (and at the end):
`quick · oracle: 57/570 (10%), 12.3/s, about 0:00:42 left`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def _clock(seconds: float) -> str:
    whole = int(round(seconds))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


class PlainLines:
    """One line per `step` percent of trials finished (see the module docstring)."""

    def __init__(
        self,
        console: Console,
        label: str,
        step: int = 10,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console, self.label, self.step, self.clock = console, label, step, clock
        self.started: tuple[float, int] | None = None
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.started is None:
            self.started = (now, done)  # trials finished before (resume) are not in the rate
            self.shown = (100 * done // total) // self.step if total else 0
            return
        bucket = (100 * done // total) // self.step if total else 0
        if bucket <= self.shown and done < total:
            return
        self.shown = bucket
        began, first = self.started
        elapsed = max(now - began, 1e-9)
        rate = (done - first) / elapsed
        left = (total - done) / rate if rate > 0 else None
        eta = "done" if done >= total else (f"about {_clock(left)} left" if left else "")
        parts = [f"{done}/{total} ({100 * done // total}%)", f"{rate:.1f}/s", eta]
        line = f"{self.label}: " + ", ".join(p for p in parts if p)
        self.console.print(line, highlight=False, soft_wrap=True, markup=False)


class LiveBar:
    """A rich progress bar with rate and time left (terminals only)."""

    def __init__(self, console: Console, label: str) -> None:
        self.bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self.label = label
        self.task: TaskID | None = None
        self.started: tuple[float, int] | None = None

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.task is None:  # the bar appears once the run has started, never above a refusal
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total, completed=done, rate="")
            self.started = (now, done)
            return
        assert self.started is not None
        began, first = self.started
        rate = (done - first) / max(now - began, 1e-9)
        self.bar.update(self.task, completed=done, total=total, rate=f"{rate:.1f}/s")

    def stop(self) -> None:
        """Leave the finished bar on screen."""
        if self.task is not None:
            self.bar.stop()
