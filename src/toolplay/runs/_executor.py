"""Where a run's scenario trials are played: in this process, or spread over a Ray cluster.

An executor gets the trials still to play and hands each finished `TrialOutcome` to the
runner, which alone writes the store (file first, then the commit). So whichever executor
played a trial, resume, the response cache, infrastructure-error accounting and the summary
are the same; the executor decides only where the work happens and how much at once.

- `LocalExecutor` (default): asyncio in this process, up to `concurrency` trials at once. A
  model call mostly waits on the endpoint, so one process keeps dozens of conversations in
  flight on one core; it is the right choice up to what one machine's CPU sustains (see
  `bench/bench_call_cpu.py`).
- `RayExecutor` (`toolplay.runs._ray`, extra `toolplay[ray]`): the same trials on Ray workers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from toolplay.runs._config import RunConfig
from toolplay.runs._trial import TrialOutcome, TrialWork, play_only, score_only
from toolplay.scenarios import Scenario

Finished = Callable[[TrialOutcome], Awaitable[None]]
"""Receives each finished trial (the runner stores it before the next one is reported)."""


@dataclass(frozen=True)
class RunJob:
    """What an executor is asked to do: the run's config and its resolved work."""

    config: RunConfig
    work: TrialWork
    """The driver's catalog, mode, roles and scoring context (a remote executor rebuilds its
    own from `config`)."""
    todo: Sequence[tuple[Scenario, int]]
    """(scenario, trial) pairs not yet stored, in the order to start them."""


class Executor(Protocol):
    """Plays trials and hands back their outcomes."""

    name: str

    async def execute(self, job: RunJob, finished: Finished) -> None:
        """Play every trial of `job.todo`, awaiting `finished(outcome)` for each."""
        ...


class LocalExecutor:
    """Every trial in this process's event loop, `config.concurrency` at once."""

    name = "local"

    async def execute(self, job: RunJob, finished: Finished) -> None:
        """See `Executor.execute`."""
        pending = iter(job.todo)

        async def worker() -> None:
            # `concurrency` workers take trials in order: a trial starts only when a worker is
            # free, so progress moves as trials finish even when playing never waits (the
            # oracle), instead of every play running before the first write.
            for scenario, trial in pending:
                trajectory, setup = await play_only(job.work, scenario, trial)
                await finished(score_only(job.work, scenario, trial, trajectory, setup))

        workers = max(1, min(job.config.concurrency, len(job.todo)))
        await asyncio.gather(*(worker() for _ in range(workers)))
