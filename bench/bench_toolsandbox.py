"""Benchmark: exporting, loading, validating and scoring the `toolsandbox` suite.

Times, in one process (CPU time beside wall time: the machine may be shared):
- the export itself (`scripts/toolsandbox_export`, run with the reference's Python when
  `--reference-python PATH` is given; skipped otherwise), per base scenario;
- loading the suite (`--suite toolsandbox`: the exported bases, their solutions, the 8
  augmentation settings);
- `toolplay validate --suite toolsandbox` (oracle play and scoring of every scenario), per
  scenario;
- scoring alone: `score_trajectory` over the oracle trajectories just played, per trajectory.

Costs are reported per scenario (or per base for the export), so a suite that grows is compared
by what each scenario costs. The baseline in the same run is the `sandbox` suite's bases
validated the same way (the per-scenario cost of toolplay's own scenarios).

Run: .venv/bin/python bench/bench_toolsandbox.py [--reference-python PATH]
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from toolplay.catalog import build_catalog
from toolplay.conversation import PlayRequest
from toolplay.messages import Trajectory
from toolplay.roles import OracleAssistant, ScriptedUser
from toolplay.scenarios import Scenario, load_scenario_paths
from toolplay.scenarios._suites import DATA
from toolplay.scoring import score_trajectory

ROOT = Path(__file__).resolve().parent.parent
CATALOG = build_catalog()
T = TypeVar("T")


def timed(action: Callable[[], T]) -> tuple[T, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = action()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def play(scenarios: list[Scenario]) -> list[Trajectory]:
    """The oracle's trajectories (what `validate` plays), in each scenario's own mode."""

    async def run() -> list[Trajectory]:
        out = []
        for scenario in scenarios:
            mode = CATALOG.mode("dynamic")
            setup = CATALOG.setup(scenario)
            out.append(await mode.play(PlayRequest(setup, OracleAssistant(), ScriptedUser())))
        return out

    return asyncio.run(run())


def score(scenarios: list[Scenario], trajectories: list[Trajectory]) -> list[float | None]:
    context = CATALOG.scoring_context(scenarios)
    values = []
    for scenario, trajectory in zip(scenarios, trajectories, strict=True):
        scorer = CATALOG.scorer(scenario.evaluation)
        values.append(score_trajectory(CATALOG.setup(scenario), trajectory, scorer, context).score)
    return values


def export_seconds(python: str) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        done = subprocess.run(
            [python, str(ROOT / "scripts" / "toolsandbox_export"), out],
            capture_output=True,
            text=True,
            check=True,
        )
        seconds = time.perf_counter() - start
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    return seconds, int(counts["exported"])


def main() -> dict[str, Any]:
    args = sys.argv[1:]
    python = args[args.index("--reference-python") + 1] if "--reference-python" in args else None
    result: dict[str, Any] = {}
    if python is not None:
        seconds, exported = export_seconds(python)
        print(f"export: {exported} bases in {seconds:.2f} s wall")
        result.update(
            export_s=round(seconds, 2), export_ms_per_base=round(seconds / exported * 1000, 1)
        )
    CATALOG.load_suite("quick")  # imports and registries warm
    suite, load_wall, load_cpu = timed(lambda: CATALOG.load_suite("toolsandbox"))
    scenarios = list(suite.scenarios)
    print(f"load: {len(scenarios)} scenarios in {load_wall:.2f} s wall / {load_cpu:.2f} s CPU")
    trajectories, play_wall, play_cpu = timed(lambda: play(scenarios))
    scores, score_wall, score_cpu = timed(lambda: score(scenarios, trajectories))
    perfect = sum(1 for s in scores if s is not None and s >= 1.0 - 1e-9)
    print(
        f"oracle play: {play_wall:.2f} s wall / {play_cpu:.2f} s CPU; "
        f"{perfect}/{len(scores)} score 1"
    )
    print(f"scoring: {score_wall:.2f} s wall / {score_cpu:.2f} s CPU")
    bases = load_scenario_paths([DATA / "sandbox"], CATALOG.load_context())
    base_trajectories = play(bases)
    _, _, base_score_cpu = timed(lambda: score(bases, base_trajectories))
    per = score_cpu / len(scenarios) * 1000
    per_base = base_score_cpu / len(bases) * 1000
    print(
        f"per scenario: load {load_cpu / len(scenarios) * 1000:.2f} ms, play "
        f"{play_cpu / len(scenarios) * 1000:.2f} ms, score {per:.2f} ms CPU "
        f"(sandbox bases: score {per_base:.2f} ms; ratio {per / per_base:.2f})"
    )
    result.update(
        scenarios=len(scenarios),
        perfect=perfect,
        load_ms_per_scenario=round(load_cpu / len(scenarios) * 1000, 2),
        play_ms_per_scenario=round(play_cpu / len(scenarios) * 1000, 2),
        score_ms_per_scenario=round(per, 2),
        score_ratio_vs_sandbox_bases=round(per / per_base, 2),
    )
    return result


if __name__ == "__main__":
    print(json.dumps(main()))
