"""The floor and the ceiling of a run: the same scenarios played by `no-call` and `oracle`.

A score means little alone: 0.2 on a suite where an assistant that never calls a tool already
gets 0.15 is not 0.2 on one where it gets 0. So a run can be set beside its floor (`no-call`:
answers every turn with a refusal, calls nothing) and its ceiling (`oracle`: plays the
reference solution) on exactly its scenarios — same suite, mode, selection, trials — with the
scripted user. Neither calls a model, so both take seconds; they are written to a working
folder the caller chooses and disposes of.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from toolplay.runs._runner import execute_run, stored_config
from toolplay.runs._summary import RunSummary
from toolplay.store import RunStore

__all__ = ["FLOOR", "CEILING", "Baselines", "play_baselines"]

FLOOR = "no-call"
CEILING = "oracle"


class Baselines(NamedTuple):
    """The floor's and the ceiling's summaries on a run's scenarios."""

    floor: RunSummary
    ceiling: RunSummary


async def play_baselines(run_dir: Path, work: Path) -> Baselines:
    """Play the run's scenarios with `no-call` and with `oracle` into `work/floor`, `work/ceiling`.

    Raises:
        StoreError: `run_dir` holds no run.
        RunError: The run's suite or plugins no longer load.
    """
    store = RunStore.in_dir(run_dir)
    try:
        config = stored_config(run_dir, store)
    finally:
        store.close()
    summaries = []
    for name, assistant in (("floor", FLOOR), ("ceiling", CEILING)):
        baseline = config.model_copy(
            update={
                "assistant": assistant,
                "user": "scripted",
                "out": work / name,
                "resume": False,
                "cache": None,
                "concurrency": max(config.concurrency, 4),
            }
        )
        summaries.append(await execute_run(baseline))
    return Baselines(*summaries)
