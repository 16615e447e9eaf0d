"""Ray as the executor: trials played by worker actors across a Ray cluster (extra `ray`).

`toolplay run ... --executor ray [--ray-address ADDR] [--ray-workers N]`. Without an address
(and without `RAY_ADDRESS`) a local Ray instance is started for the run and stopped after it.

- **Workers** are Ray actors (`TrialWorker`, one CPU each), each holding what playing needs,
  built once from the run's resolved config by the same run plan as the driver's
  (`resolve_run`): the catalog (`config.plugins` are loaded again on the worker, so a plugin
  must be importable there), the suite, the roles (a local model is loaded once per worker and
  serves all its trials), the player and the scoring resources. A worker plays and
  scores a trial and returns a `TrialOutcome` of plain JSON data; it never writes the store.
- **The driver** (the `toolplay run` process) stays the one writer of the SQLite store: it
  stores each outcome as the local executor does (file first, commit last), so resume,
  infrastructure-error accounting and `summary.json` are those of the local executor, byte for
  byte. At most `concurrency` trials are in flight over all workers; each goes to the least
  busy worker.
- **Losing a worker** (its process killed, its node gone): Ray restarts the actor and plays its
  unfinished trials again (`max_task_retries`); a trial whose worker is lost more often than
  that is stored as an infrastructure error naming the cause, which `--resume` plays again.
  Nothing that was stored is lost: only the driver writes, and only finished trials.
- **Losing the driver**: the workers go with it (they belong to its Ray job); `--resume`
  continues from the store like after any other crash.
- **The response cache** (`--cache`) is opened by every worker: the file must be reachable at
  the same path from every node (a shared file system; SQLite's locking serialises writers).
- **API keys** are never sent through Ray: each worker must see the key variables the roles
  name in its own environment (a local instance inherits the driver's; on a cluster, set them
  where `ray start` runs). A worker that does not see a variable the driver sees refuses to
  start, naming it, before any trial is played.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from toolplay.messages import compact_exchanges
from toolplay.runs._cache import SqliteResponseCache
from toolplay.runs._config import RunConfig
from toolplay.runs._executor import Finished, RunJob
from toolplay.runs._plan import resolve_run
from toolplay.runs._preflight import RunError
from toolplay.runs._trial import TrialOutcome, TrialWork, harness_failure, play_trial
from toolplay.scenarios import Scenario

logger = logging.getLogger(__name__)

WORKER_LOST_RETRIES = 2
"""Times Ray plays a trial again after losing the worker playing it (then: infrastructure
error, played again on resume)."""


def key_variables(config: RunConfig) -> list[str]:
    """The environment variables holding the roles' API keys (names only)."""
    names = [
        config.assistant_model.resolve().api_key_env,
        config.user_options().resolve().api_key_env,
    ]
    return sorted(set(names))


class TrialWorker:
    """Plays and scores trials in a Ray worker process (wrapped as a Ray actor).

    Args:
        config: The run's config (`RunConfig.model_dump(mode="json")`).
        keys: Key variables the driver sees; the worker must see them too.
    """

    def __init__(self, config: dict[str, Any], keys: list[str]) -> None:
        missing = [name for name in keys if not os.environ.get(name)]
        if missing:
            raise RunError(
                f"a Ray worker on {os.uname().nodename} does not see {', '.join(missing)} "
                "(set on the driver): API keys are not sent through Ray; set them in the "
                "environment of `ray start` on every node"
            )
        plan = resolve_run(RunConfig.model_validate(config), intent="play")
        self._scenarios: dict[str, Scenario] = {s.id: s for s in plan.scenarios}
        self._cache = SqliteResponseCache(plan.config.cache) if plan.config.cache else None
        assistant, user = plan.roles(self._cache)
        player = plan.player(assistant, user)
        self._work = TrialWork(
            plan.catalog, player, plan.mode_name, user.name, plan.scoring_context()
        )

    def ready(self) -> int:
        """The worker's process id, once it is built (a failed build raises here)."""
        return os.getpid()

    async def play(self, scenario_id: str, trial: int) -> TrialOutcome:
        """Play and score one trial."""
        return await play_trial(self._work, self._scenarios[scenario_id], trial)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RunError(
            "--executor ray needs Ray: pip install 'toolplay[ray]' (or pip install ray)"
        ) from exc
    return ray


@contextmanager
def ray_session(address: str | None) -> Iterator[Any]:
    """Ray, connected to `address` (None: `RAY_ADDRESS`, else a new local instance).

    A connection this process already holds is used as it is and left open; one made here
    is closed on the way out.
    """
    ray = _import_ray()
    if ray.is_initialized():
        yield ray
        return
    try:
        ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        raise RunError(f"--ray-address: cannot connect to Ray at {address}: {exc}") from exc
    try:
        yield ray
    finally:
        ray.shutdown()


class RayExecutor:
    """Trials on Ray worker actors; the driver stores them (see the module docstring).

    Args:
        address: A Ray cluster's address (`ray://HOST:10001` or `HOST:6379`); None starts
            a local instance unless `RAY_ADDRESS` names one.
        workers: Worker actors (one CPU each); default: every CPU of the cluster.
    """

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        if workers is not None and workers < 1:
            raise RunError(f"--ray-workers: must be at least 1, got {workers}")
        self.address = address
        self.workers = workers
        self.pids: list[int] = []
        """Process ids of the workers (known once they are ready; tests kill one)."""
        self.startup_seconds = 0.0
        """Time from connecting to Ray to every worker ready (reported by the benchmark)."""

    async def execute(self, job: RunJob, finished: Finished) -> None:
        """See `Executor.execute`."""
        if not job.todo:
            return
        started = time.monotonic()
        with ray_session(self.address) as ray:
            cpus = int(ray.cluster_resources().get("CPU", 1))
            count = self.workers or cpus
            if count > cpus:
                raise RunError(f"--ray-workers: {count} asked, the Ray cluster has {cpus} CPUs")
            count = min(count, len(job.todo))
            actor = ray.remote(
                num_cpus=1,
                max_restarts=-1,
                max_task_retries=WORKER_LOST_RETRIES,
                max_concurrency=max(1, math.ceil(job.config.concurrency / count)),
            )(TrialWorker)
            config = job.config.model_dump(mode="json")
            keys = [name for name in key_variables(job.config) if os.environ.get(name)]
            workers = [actor.remote(config, keys) for _ in range(count)]
            try:
                try:
                    self.pids = list(await asyncio.gather(*(w.ready.remote() for w in workers)))
                except ray.exceptions.RayError as exc:
                    raise RunError(f"Ray workers could not start: {_cause(exc)}") from exc
                self.startup_seconds = time.monotonic() - started
                await self._dispatch(ray, job, workers, finished)
            finally:
                for worker in workers:
                    ray.kill(worker)

    async def _dispatch(
        self, ray: Any, job: RunJob, workers: list[Any], finished: Finished
    ) -> None:
        gate = asyncio.Semaphore(job.config.concurrency)
        busy = [0] * len(workers)

        async def one(scenario: Scenario, trial: int) -> None:
            async with gate:
                slot = min(range(len(workers)), key=busy.__getitem__)
                busy[slot] += 1
                try:
                    outcome = await workers[slot].play.remote(scenario.id, trial)
                except ray.exceptions.RayError as exc:
                    outcome = _lost(job, scenario, trial, exc)
                finally:
                    busy[slot] -= 1
            await finished(outcome)

        await asyncio.gather(*(one(s, t) for s, t in job.todo))


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _cause(exc: BaseException) -> str:
    """The root of a Ray error on one line: Ray's message ends with the remote traceback,
    whose last line is the exception raised in the worker.
    """
    lines = [line.strip() for line in _ANSI.sub("", str(exc)).splitlines() if line.strip()]
    text = lines[-1] if lines else type(exc).__name__
    return text if len(text) <= 500 else text[:500] + "..."


def _lost(job: RunJob, scenario: Scenario, trial: int, exc: BaseException) -> TrialOutcome:
    """A trial Ray could not finish (its worker lost too often): an infrastructure error."""
    logger.warning("%s trial %d: lost on Ray: %s", scenario.id, trial, _cause(exc))
    work = job.work
    trajectory = harness_failure(
        scenario,
        trial,
        work.mode_name,
        work.player.name,
        work.user_name,
        f"Ray worker lost ({type(exc).__name__}): {_cause(exc)}",
    )
    return TrialOutcome(
        scenario_id=scenario.id,
        trial=trial,
        trajectory=compact_exchanges(trajectory.model_dump(mode="json")),
        score=None,
        failed=True,
        error=trajectory.error,
    )
