"""Benchmark: building and validating the full `sandbox` suite (bases + generated variants).

Times, in one process: loading the base files, generating the world-state variants and the
8 augmentation settings (`expand_variants`, memo cleared), and `toolplay validate --suite
sandbox` (oracle play + scoring of every scenario). As a baseline measured in the same run,
the base scenarios alone are validated first: the per-scenario cost of the full suite is
reported against it. CPU time (process time) is reported beside wall time, because the
machine may be shared. A cProfile of validating the first 300 scenarios lists the hottest
functions.

Run: .venv/bin/python bench/bench_sandbox_suite.py [--quick]   (--quick: no profile)
"""

from __future__ import annotations

import cProfile
import io
import json
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from toolplay.catalog import build_catalog
from toolplay.scenarios import Scenario, expand_variants, load_scenario_paths
from toolplay.scenarios._suites import DATA
from toolplay.validate import validate_suite

CATALOG = build_catalog()

T = TypeVar("T")


def timed(action: Callable[[], T]) -> tuple[T, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = action()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def validate(scenarios: Sequence[Scenario]) -> list[str]:
    """What `toolplay validate` does for these scenarios (in the sandbox suite's mode)."""
    return validate_suite("sandbox", catalog=CATALOG, scenarios=scenarios).failures


def main() -> dict[str, Any]:
    quick = "--quick" in sys.argv[1:]
    CATALOG.load_suite("quick")  # imports and registries warm
    context = CATALOG.load_context()
    bases, load_wall, load_cpu = timed(lambda: load_scenario_paths([DATA / "sandbox"], context))
    expanded, gen_wall, gen_cpu = timed(lambda: expand_variants(bases, context))
    print(f"bases: {len(bases)} loaded in {load_wall:.2f} s wall / {load_cpu:.2f} s CPU")
    print(
        f"variants: {len(expanded.scenarios)} scenarios generated in {gen_wall:.2f} s wall / "
        f"{gen_cpu:.2f} s CPU ({len(expanded.skipped)} unsound skipped)"
    )
    failures, base_wall, base_cpu = timed(lambda: validate(bases))
    assert failures == [], failures[:5]
    full = list(CATALOG.load_suite("sandbox").scenarios)
    failures, full_wall, full_cpu = timed(lambda: validate(full))
    assert failures == [], failures[:5]
    per_base = base_cpu / len(bases)
    per_full = full_cpu / len(full)
    print(f"validate bases: {len(bases)} in {base_wall:.2f} s wall / {base_cpu:.2f} s CPU")
    print(f"validate full suite: {len(full)} in {full_wall:.2f} s wall / {full_cpu:.2f} s CPU")
    print(
        f"per scenario: {per_full * 1000:.1f} ms CPU (bases alone: {per_base * 1000:.1f} ms; "
        f"ratio {per_full / per_base:.2f})"
    )
    if not quick:
        sample = full[:300]
        profile = cProfile.Profile()
        profile.runcall(validate, sample)
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(12)
        print("hottest functions validating 300 scenarios (by own time):")
        print("\n".join(out.getvalue().splitlines()[-16:]))
    return {
        "bases": len(bases),
        "scenarios": len(full),
        "generate_cpu_s": round(gen_cpu, 2),
        "validate_cpu_s": round(full_cpu, 2),
        "validate_wall_s": round(full_wall, 2),
        "ms_per_scenario_cpu": round(per_full * 1000, 2),
        "ratio_vs_bases": round(per_full / per_base, 2),
    }


if __name__ == "__main__":
    print(json.dumps(main()))
