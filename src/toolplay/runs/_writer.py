"""The one writer of a run's store: each finished trial's file first, then its commit.

Executors hand every finished trial (`TrialOutcome`, plain JSON data wherever it was played) to
the run's `StoreWriter`. It writes the trial's trajectory file, then commits the row: a kill in
between leaves an uncommitted trial, which resume plays again (rewriting the file), never a
result without its file. All writes happen on one thread of the driver, so fsyncs never stall
the event loop and two trials never write at once; the progress callback follows the commits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import Any

from toolplay.runs._restore import stored_records
from toolplay.runs._trial import TrialOutcome
from toolplay.store import RunStore, trajectory_path, write_trajectory_lines

__all__ = ["Progress", "StoreWriter"]

Progress = Callable[[int, int], None]
"""Called with (finished, total) after every scenario trial."""


class StoreWriter:
    """Stores finished trials of one run, in the order they finish (see the module docstring).

    Args:
        store: The run's store (open, locked by this process).
        out: The run folder (trajectory files go under it).
        roles: Each role's name and public settings, written into every trajectory's header.
        total: Scenario trials the run covers.
        finished: Those already stored (resume).
        progress: Told (finished, total) after each commit, and once at the start.
    """

    def __init__(
        self,
        store: RunStore,
        out: Path,
        roles: dict[str, Any],
        *,
        total: int,
        finished: int = 0,
        progress: Progress | None = None,
    ) -> None:
        self.store = store
        self.out = out
        self.roles = roles
        self.total = total
        self.finished = finished
        self.progress = progress
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolplay-store")
        if progress is not None:
            progress(finished, total)

    def persist(self, outcome: TrialOutcome) -> None:
        """Write one trial now, in this thread: its file, then its row."""
        write_trajectory_lines(
            trajectory_path(self.out, outcome.scenario_id, outcome.trial),
            stored_records(outcome.trajectory, outcome.score, self.roles),
        )
        self.store.save_result(
            outcome.scenario_id,
            outcome.trial,
            status=outcome.status,
            trajectory=outcome.trajectory,
            score=outcome.score,
            error=outcome.error,
        )

    async def write(self, outcome: TrialOutcome) -> None:
        """Store one finished trial on the writer's thread, then report progress."""
        await asyncio.get_running_loop().run_in_executor(self._thread, self.persist, outcome)
        self.finished += 1
        if self.progress is not None:
            self.progress(self.finished, self.total)

    def close(self) -> None:
        """Wait for every write in flight (the store stays open: its owner closes it)."""
        self._thread.shutdown(wait=True)

    def __enter__(self) -> StoreWriter:
        """The writer, closed (its writes finished) on leaving the block."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Wait for the writes in flight."""
        self.close()
