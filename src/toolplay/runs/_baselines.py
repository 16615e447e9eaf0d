"""The floor and the ceiling of a run: the same scenarios played by `no-call` and `oracle`.

A score means little alone: 0.2 on a suite where an assistant that never calls a tool already
gets 0.15 is not 0.2 on one where it gets 0. So a run can be set beside its floor (`no-call`:
answers every turn with a refusal, calls nothing) and its ceiling (`oracle`: plays the
reference solution) on exactly its scenarios — same suite, mode, selection, trials — with the
scripted user. Neither calls a model, so both take seconds; they are written to a working
folder the caller chooses and disposes of. Their summaries are kept in the run directory
(`baselines.json`, `save_baselines`), so the HTML report, which only reads the run directory,
can show the run between them too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from pydantic import ValidationError

from toolplay.runs._runner import execute_run, stored_config
from toolplay.runs._summary import RunSummary
from toolplay.store import RunStore, write_atomic

__all__ = [
    "BASELINES_FILE",
    "CEILING",
    "FLOOR",
    "Baselines",
    "load_baselines",
    "play_baselines",
    "save_baselines",
]

BASELINES_FILE = "baselines.json"
"""The floor's and ceiling's summaries in a run directory (written by `toolplay baselines`)."""

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


def save_baselines(run_dir: Path, baselines: Baselines) -> Path:
    """Keep `baselines` in `run_dir/baselines.json` (replacing an earlier copy)."""
    path = run_dir / BASELINES_FILE
    data = {"floor": baselines.floor.to_json(), "ceiling": baselines.ceiling.to_json()}
    write_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n")
    return path


def load_baselines(run_dir: Path) -> Baselines | None:
    """The run's kept baselines; None when there are none or the file is unreadable."""
    path = run_dir / BASELINES_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Baselines(
            RunSummary.model_validate(data["floor"]), RunSummary.model_validate(data["ceiling"])
        )
    except (OSError, ValueError, KeyError, TypeError, ValidationError):
        return None
