"""The floor and the ceiling an audit needs, played when the runs given lack them.

`no-call` (never calls a tool) and `oracle` (plays the reference solution) need no model, so
for every mode among the runs under test that has no floor or ceiling run given, the audit
plays them itself: the suite, mode, selection and version of that mode's largest run, with
the scripted user and one trial (both are deterministic). They are written under the audit's
folder, `baselines/<role>-<mode>-<hash of the configuration>`, so a second audit of the same
runs reuses them and an audit of other runs never mixes them up. A baseline that cannot be
played (the suite moved, the run has no configuration) is left out with a note saying why.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from toolplay.analysis._audit import AuditInput
from toolplay.analysis._run_data import load_run
from toolplay.catalog import CatalogError
from toolplay.runs import (
    CEILING,
    FLOOR,
    RunConfig,
    RunError,
    SelectionError,
    execute_run,
    run_identity,
)
from toolplay.scenarios import ScenarioError
from toolplay.store import RunStore, StoreError

__all__ = ["play_missing_baselines"]

_ROLES = (("floor", FLOOR), ("ceiling", CEILING))


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "mode"


@contextmanager
def _unwarned() -> Iterator[None]:
    """Warnings off while the audit plays a baseline (no model is called, nothing to retry)."""
    before = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(before)


def _baseline_config(config: RunConfig, assistant: str, root: Path) -> RunConfig:
    plain = config.model_copy(
        update={
            "assistant": assistant,
            "user": "scripted",
            "trials": 1,
            "resume": False,
            "cache": None,
            "concurrency": max(config.concurrency, 4),
            "out": root,
        }
    )
    identity = json.dumps(run_identity(plain), sort_keys=True, default=str)
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:10]
    role = "floor" if assistant == FLOOR else "ceiling"
    out = root / f"{role}-{_slug(str(config.mode or 'default'))}-{digest}"
    return plain.model_copy(update={"out": out, "resume": (out / RunStore.FILENAME).exists()})


async def play_missing_baselines(
    inputs: Sequence[AuditInput], root: Path
) -> tuple[list[AuditInput], list[str]]:
    """Floor and ceiling runs for each mode of the runs under test that lacks them.

    Returns:
        The baselines played (or reused) and notes on those that could not be.
    """
    given = {(i.role, i.run.describe("mode")) for i in inputs if i.role != "run"}
    largest: dict[str, AuditInput] = {}
    for item in inputs:
        if item.role != "run":
            continue
        mode = item.run.describe("mode")
        held = len({e.id for e in item.run.entries})
        if mode not in largest or held > len({e.id for e in largest[mode].run.entries}):
            largest[mode] = item
    played: list[AuditInput] = []
    notes: list[str] = []
    for mode, item in largest.items():
        for role, assistant in _ROLES:
            if (role, mode) in given:
                continue
            if item.run.config is None:
                notes.append(f"no {role} for mode {mode}: {item.label} has no config.json")
                continue
            config = _baseline_config(item.run.config, assistant, root)
            try:
                with _unwarned():
                    await execute_run(config)
            except (RunError, ScenarioError, SelectionError, StoreError, CatalogError) as exc:
                notes.append(f"no {role} for mode {mode}: could not play {assistant} ({exc})")
                continue
            label = f"{role} ({mode})" if len(largest) > 1 else role
            played.append(AuditInput(label, load_run(config.out), role, played=True))  # type: ignore[arg-type]
    return played, notes
