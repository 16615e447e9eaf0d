"""Scaling of one run over executors: local (asyncio, one process) vs Ray with 1 and 2 workers.

The same run as `bench_call_cpu.py` (the OpenAI-compatible assistant over the first
`--limit` sandbox scenarios at concurrency 64, against `python -m toolplay.testing` in its own
process answering after `--latency` seconds), played by each executor in a fresh process, in
turn, `--repeat` rounds. Reported per executor: the start-up before the first trial (Ray:
starting a local instance and its workers, which import toolplay and load the suite), the
wall time of the trials themselves, calls per second, and the fraction of the ideal (see
`bench_call_cpu.py`: the same conversations on 64 slots with a zero-cost harness). Summaries
must be identical across executors.

On this 2-core machine the workers share the cores with the driver, the test server and Ray's
own processes (and, while measuring, with whatever else runs): Ray cannot beat the local
executor here; the numbers show its fixed cost and that it keeps up. The scaling for N nodes
is discussed in docs/executors.md (the numbers: bench/README.md).

Usage: .venv/bin/python bench/bench_ray_scaling.py [--quick] [--latency 0.2] [--limit 256]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_call_cpu import ideal_makespan, start_server  # noqa: E402

VARIANTS = {"local": None, "ray-1": 1, "ray-2": 2}


def child(spec: dict[str, Any]) -> None:
    """One measured run in this process; prints one JSON line."""
    import asyncio
    import time

    from toolplay.runs import LocalExecutor, RunConfig, execute_run

    marks: list[float] = []
    workers = spec["workers"]
    if workers is None:
        executor: Any = LocalExecutor()
    else:
        from toolplay.runs._ray import RayExecutor

        executor = RayExecutor(workers=workers)

    def progress(finished: int, total: int) -> None:
        marks.append(time.perf_counter())

    config = RunConfig(
        suite="sandbox",
        assistant="openai:bench",
        out=Path(spec["out"]),
        limit=spec["limit"],
        concurrency=spec["concurrency"],
        options={"base_url": spec["base_url"], "max_retries": 0, "timeout": 120},
    )
    started = time.perf_counter()
    summary = asyncio.run(execute_run(config, progress=progress, executor=executor))
    startup = getattr(executor, "startup_seconds", 0.0)
    print(
        json.dumps(
            {
                "calls": summary.usage.calls,
                "errors": summary.errors,
                "startup_s": marks[0] - started + startup,
                "trials_s": marks[-1] - marks[0] - startup,
                "summary": summary.model_dump_json(),
            }
        )
    )


def per_trial_calls(out: Path, limit: int) -> list[int]:
    """Calls of each conversation, in the order the runner started them."""
    from toolplay.catalog import build_catalog
    from toolplay.runs._select import select_scenarios
    from toolplay.store import RunStore

    store = RunStore.in_dir(out)
    try:
        calls = {r.scenario_id: int(r.trajectory["usage"]["calls"]) for r in store.results()}
    finally:
        store.close()
    suite = build_catalog().load_suite("sandbox")
    return [calls[s.id] for s in select_scenarios(suite, limit, [])]


def main() -> None:
    """Each executor in turn, per round; a table, then a JSON line of headline numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="128 scenarios, one round")
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=None)
    args = parser.parse_args()
    if args.child:
        child(json.loads(args.child))
        return
    limit = args.limit or (128 if args.quick else 256)
    repeat = args.repeat or (1 if args.quick else 2)
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in VARIANTS}
    server, base_url = start_server("sandbox", args.latency)
    header = ("executor", "calls", "start-up s", "trials s", "calls/s", "fraction")
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, (8, 6, 10, 8, 8, 8), strict=True)))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for round_ in range(repeat):
                for name, workers in VARIANTS.items():
                    out = Path(tmp) / f"{name}-{round_}"
                    spec = {
                        "workers": workers,
                        "limit": limit,
                        "concurrency": args.concurrency,
                        "base_url": base_url,
                        "out": str(out),
                    }
                    proc = subprocess.run(
                        [sys.executable, __file__, "--child", json.dumps(spec)],
                        capture_output=True,
                        text=True,
                        env=os.environ,
                        check=False,
                    )
                    if proc.returncode != 0:
                        raise RuntimeError(f"{name} failed:\n{proc.stderr[-3000:]}")
                    row = json.loads(proc.stdout.strip().splitlines()[-1])
                    if row["errors"]:
                        raise RuntimeError(f"{name}: {row['errors']} conversation(s) failed")
                    ideal = ideal_makespan(
                        per_trial_calls(out, limit), args.latency, args.concurrency
                    )
                    row["fraction"] = ideal / row["trials_s"]
                    rows[name].append(row)
                    print(
                        f"{name:>8} {row['calls']:>6} {row['startup_s']:>10.2f} "
                        f"{row['trials_s']:>8.2f} {row['calls'] / row['trials_s']:>8.1f} "
                        f"{row['fraction']:>8.3f}",
                        flush=True,
                    )
    finally:
        server.terminate()
        server.wait(timeout=10)
    summaries = {r["summary"] for rs in rows.values() for r in rs}
    if len(summaries) != 1:
        raise RuntimeError("the executors' summaries differ")
    print("summaries identical across executors and rounds")
    headline: dict[str, float] = {}
    for name, results in rows.items():
        headline[f"{name}_fraction"] = round(statistics.median(r["fraction"] for r in results), 3)
        headline[f"{name}_startup_s"] = round(statistics.median(r["startup_s"] for r in results), 2)
    print(json.dumps(headline))


if __name__ == "__main__":
    main()
