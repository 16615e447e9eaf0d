"""Harness overhead per scenario: the oracle over a whole suite, scoring included.

Target (issue 8): under 20 ms per scenario on the full sandbox suite, including scoring
(the ToolSandbox reference spends about 200 ms per scenario with a canned assistant).

Measured in the same run, as a baseline: the bare cost of the work itself — executing every
reference call of every scenario directly through the tool registry on a fresh world, with no
message bus, roles, scoring or store. The ratio full / bare is the harness's own overhead
factor. Also reported: the peak memory (max RSS) of this process during the full run.

Usage: .venv/bin/python bench/bench_overhead.py [--suite sandbox] [--limit N] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import tempfile
import time
from pathlib import Path

from toolplay.catalog import build_catalog
from toolplay.messages import ToolCall
from toolplay.runs import RunConfig, RunSummary, execute_run
from toolplay.scenarios import Suite

CATALOG = build_catalog()


def load_suite(name: str) -> Suite:
    return CATALOG.load_suite(name)


def bare(suite_name: str, limit: int | None) -> tuple[float, int]:
    scenarios = load_suite(suite_name).scenarios[:limit]
    start = time.perf_counter()
    for scenario in scenarios:
        setup = CATALOG.setup(scenario)
        world = setup.new_world()
        registry = setup.registry
        for t, turn in enumerate(scenario.reference):
            for c, call in enumerate(turn.calls):
                world.index += 1
                registry.execute(world, ToolCall.from_args(f"{t}{c}", call.name, call.arguments))
    return time.perf_counter() - start, len(scenarios)


def full(suite_name: str, limit: int | None, out: Path) -> tuple[float, RunSummary]:
    config = RunConfig(suite=suite_name, assistant="oracle", out=out, limit=limit)
    start = time.perf_counter()
    summary = asyncio.run(execute_run(config))
    return time.perf_counter() - start, summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--suite", default="sandbox")
    parser.add_argument("--limit", type=int, default=None, help="only the first N scenarios")
    parser.add_argument("--quick", action="store_true", help="use the quick suite")
    args = parser.parse_args()
    suite = "quick" if args.quick else args.suite
    load_suite(suite)  # warm imports and registries out of both timings
    bare_seconds, count = bare(suite, args.limit)
    with tempfile.TemporaryDirectory() as tmp:
        full_seconds, summary = full(suite, args.limit, Path(tmp) / "run")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    per_scenario_ms = 1000 * full_seconds / count
    print(f"suite {suite}: {count} scenarios, completed {summary.completed}")
    print(f"bare tool execution: {1000 * bare_seconds / count:.2f} ms/scenario")
    print(
        f"full harness (play + score + store + files): {per_scenario_ms:.2f} ms/scenario "
        f"(target < 20 ms; ToolSandbox reference ~200 ms)"
    )
    print(f"overhead factor vs bare execution: {full_seconds / bare_seconds:.1f}x")
    print(f"peak memory (max RSS): {peak_mb:.0f} MB")
    print(
        json.dumps(
            {
                "suite": suite,
                "scenarios": count,
                "ms_per_scenario": round(per_scenario_ms, 2),
                "bare_ms_per_scenario": round(1000 * bare_seconds / count, 3),
                "overhead_factor": round(full_seconds / bare_seconds, 1),
                "peak_rss_mb": round(peak_mb),
            }
        )
    )


if __name__ == "__main__":
    main()
