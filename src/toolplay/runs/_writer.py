"""The store's one writer: finished trials in, durable rows out, several per commit.

Every finished trial (a `TrialOutcome`) is written by one thread, so fsyncs never stall the
event loop. Each trial's trajectory file is written first (atomically, without an fsync), then
its row is committed; a trial counts as done (`store` returns) only once its row is committed,
and a commit is the fsync that makes it durable. When trials finish faster than one commit
takes, the ones waiting are committed together in one transaction (all of them or none), so
a fast endpoint pays one fsync per batch instead of two per trial.

Crash safety is that of one trial at a time: a kill before a batch's commit leaves its trials
uncommitted, and `--resume` plays them again (rewriting their files); a file lost to a power
cut after the commit is rewritten from the store when the run is reopened (`restore_files`),
which is why the files need no fsync of their own.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolplay.runs._restore import stored_records
from toolplay.runs._trial import TrialOutcome
from toolplay.store import RunStore, StoredResult, trajectory_path, write_trajectory_lines

__all__ = ["MAX_BATCH", "StoreWriter"]

MAX_BATCH = 64
"""Most trials committed in one transaction."""

_Pending = tuple[TrialOutcome, asyncio.AbstractEventLoop, "asyncio.Future[None]"]


class StoreWriter:
    """Writes finished trials of a run from one thread (see the module docstring).

    Args:
        store: The run's open store.
        out: The run directory (trajectory files).
        roles: The run's role settings, written in every trajectory file's header.
    """

    def __init__(self, store: RunStore, out: Path, roles: dict[str, Any]) -> None:
        self._store, self._out, self._roles = store, out, roles
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="toolplay-store", daemon=True)
        self._thread.start()
        self.commits = 0
        """Transactions made (for tests and benchmarks: trials / commits = batch size)."""

    async def store(self, outcome: TrialOutcome) -> None:
        """Write `outcome`; returns once its row is committed (raises what writing raised)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put((outcome, loop, done))
        await done

    def close(self) -> None:
        """Finish what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
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
        error: BaseException | None = None
        try:
            for outcome, _, _ in batch:
                write_trajectory_lines(
                    trajectory_path(self._out, outcome.scenario_id, outcome.trial),
                    stored_records(outcome.trajectory, outcome.score, self._roles),
                    sync=False,
                )
            self._store.save_results([_row(outcome) for outcome, _, _ in batch])
            self.commits += 1
        except BaseException as exc:  # every waiting trial learns why, none counts as done
            error = exc
        for _, loop, done in batch:
            loop.call_soon_threadsafe(_settle(done, error))


def _row(outcome: TrialOutcome) -> StoredResult:
    return StoredResult.model_construct(
        scenario_id=outcome.scenario_id,
        trial=outcome.trial,
        status=outcome.status,
        trajectory=outcome.trajectory,
        score=outcome.score,
        error=outcome.error,
    )


def _settle(done: asyncio.Future[None], error: BaseException | None) -> Callable[[], None]:
    def settle() -> None:
        if done.cancelled():
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)

    return settle
