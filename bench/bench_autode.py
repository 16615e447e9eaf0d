"""Benchmark: the `autode` suite — loading the user scripts, and validation in both modes.

Times, in one process: parsing the script files into scenarios, then `toolplay validate
--suite autode` in dynamic mode (oracle + scripted user) and in static mode (reference history
+ forced call), each including slot scoring. As a baseline measured in the same run, the
same scenarios are scored on their already-played trajectories alone, so play cost and
scoring cost can be told apart. CPU time is printed beside wall time (the machine is shared).

Run: .venv/bin/python bench/bench_autode.py
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import TypeVar

from toolplay.catalog import build_catalog
from toolplay.conversation import PlayRequest
from toolplay.messages import Trajectory
from toolplay.methods.autode import score_slots
from toolplay.roles import OracleAssistant, ScriptedUser
from toolplay.validate import validate_suite

T = TypeVar("T")


def timed(action: Callable[[], T]) -> tuple[T, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = action()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    catalog = build_catalog(installed=False)
    suite, load_wall, load_cpu = timed(lambda: catalog.load_suite("autode"))
    count = len(suite.scenarios)
    print(f"load {count} scripts: {load_wall:.2f}s wall, {load_cpu:.2f}s cpu")
    for mode in ("dynamic", "static"):

        def validate(mode: str = mode) -> list[str]:
            return validate_suite("autode", mode, catalog=catalog).failures

        failures, wall, cpu = timed(validate)
        per = 1000 * wall / count
        print(
            f"validate {mode}: {wall:.2f}s wall, {cpu:.2f}s cpu, {per:.1f} ms/scenario, "
            f"{len(failures)} failure(s)"
        )

    setups = [catalog.setup(s) for s in suite.scenarios]
    dynamic = catalog.mode("dynamic")

    async def play_all() -> list[Trajectory]:
        return [
            await dynamic.play(PlayRequest(setup, OracleAssistant(), ScriptedUser()))
            for setup in setups
        ]

    trajectories = asyncio.run(play_all())
    _, wall, cpu = timed(
        lambda: [score_slots(s, t) for s, t in zip(setups, trajectories, strict=True)]
    )
    print(
        f"baseline, scoring only: {wall:.3f}s wall, {cpu:.3f}s cpu, "
        f"{1000 * wall / count:.2f} ms/scenario"
    )
    print(json.dumps({"scripts": count, "scoring_ms_per_scenario": round(1000 * wall / count, 3)}))


if __name__ == "__main__":
    main()
