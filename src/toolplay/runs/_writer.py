"""The one writer of a run's store: finished trials in, durable rows out, several per commit.

Executors hand every finished trial (`TrialOutcome`, plain JSON data wherever it was played) to
the run's `StoreWriter`. One thread of the driver does every write, so fsyncs never stall the
event loop and two trials never write at once. Each trial's trajectory file is written first
(atomically, without an fsync), then its row is committed; a trial counts as done (`write`
returns, progress moves) only once its row is committed, and a commit is the fsync that makes
it durable. When trials finish faster than one commit takes, the ones waiting are committed
together in one transaction (all of them or none), so a fast endpoint pays one fsync per
batch instead of two per trial.

Crash safety is that of one trial at a time: a kill before a batch's commit leaves its trials
uncommitted, and `--resume` plays them again (rewriting their files), never a result without
its file; a file lost to a power cut after the commit is rewritten from the store when the run
is reopened (`restore_files`), which is why the files need no fsync of their own.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from toolplay.runs._restore import stored_records
from toolplay.runs._trial import TrialOutcome
from toolplay.store import RunStore, StoredResult, trajectory_path, write_trajectory_lines

__all__ = ["MAX_BATCH", "Progress", "StoreWriter"]

MAX_BATCH = 64
"""Most trials committed in one transaction."""

Progress = Callable[[int, int], None]
"""Called with (finished, total) after every scenario trial."""

_Pending = tuple[TrialOutcome, asyncio.AbstractEventLoop, "asyncio.Future[None]"]


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
        self.commits = 0
        """Transactions made (for tests and benchmarks: trials / commits = batch size)."""
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="toolplay-store", daemon=True)
        self._thread.start()
        if progress is not None:
            progress(finished, total)

    async def write(self, outcome: TrialOutcome) -> None:
        """Store one finished trial; returns once its row is committed, then reports progress.

        Raises:
            BaseException: What writing its file or committing its batch raised (the trial
                is then not done).
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put((outcome, loop, done))
        await done
        self.finished += 1
        if self.progress is not None:
            self.progress(self.finished, self.total)

    def close(self) -> None:
        """Finish what is queued, then stop the thread (the store stays open: its owner
        closes it).
        """
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()

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

    def _run(self) -> None:
        """The writer thread: take what has queued up (at most `MAX_BATCH`), write it, repeat."""
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[_Pending]) -> None:
        """The batch's files, then its rows in one transaction; each waiting trial is told."""
        error: BaseException | None = None
        try:
            for outcome, _, _ in batch:
                write_trajectory_lines(
                    trajectory_path(self.out, outcome.scenario_id, outcome.trial),
                    stored_records(outcome.trajectory, outcome.score, self.roles),
                    sync=False,
                )
            self.store.save_results([_row(outcome) for outcome, _, _ in batch])
            self.commits += 1
        except BaseException as exc:  # every waiting trial learns why, none counts as done
            error = exc
        for _, loop, done in batch:
            loop.call_soon_threadsafe(_settle(done, error))


def _row(outcome: TrialOutcome) -> StoredResult:
    """The store row of a finished trial (its data is already plain JSON: not validated again)."""
    return StoredResult.model_construct(
        scenario_id=outcome.scenario_id,
        trial=outcome.trial,
        status=outcome.status,
        trajectory=outcome.trajectory,
        score=outcome.score,
        error=outcome.error,
    )


def _settle(done: asyncio.Future[None], error: BaseException | None) -> Callable[[], None]:
    """A callback for the waiting trial's loop: done, or failed with `error`."""

    def settle() -> None:
        if done.cancelled():
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)

    return settle
