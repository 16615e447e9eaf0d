"""Harness CPU per model call, and throughput at concurrency 64 against a slow endpoint.

The OpenAI-compatible assistant plays a suite (default: the first 512 sandbox scenarios,
scripted user) against `python -m toolplay.testing`, started in its own process as a real
endpoint would be, answering every request after exactly `--latency` seconds with the
reference solution. Each measurement runs in a fresh child process, which reports:

- **CPU ms per model call**: the child's CPU time (user + system, all threads: the store's
  writer thread included) from the moment the first conversation starts to the written
  summary, divided by the model calls made. Start-up (imports, some of them lazy, loading the
  suite and registries) is paid once per process, not per call: a warm-up run of the same
  scenarios pays it first, and its CPU is reported apart. (A warm-up of 8 scenarios used to
  leave libraries that only some scenarios load on first use, rouge-score with nltk and scipy
  ~1 s, pint ~0.3 s, to the measured run: ~5 ms a trial over 256 trials.)
- **fraction of ideal throughput**: a conversation's calls are sequential, so with C
  conversations in flight at most C calls wait at once. The ideal is the same conversations
  (each with its own number of calls) started in the same order on C slots by a harness that
  costs nothing: each lasts `calls × latency`; the fraction is that ideal makespan over the
  measured one (first conversation started to last one stored). The naive bound
  C / latency calls per second is printed beside it (it ignores the tail, where fewer than C
  conversations are left).

**Baseline in the same run**: with `--baseline REV` (default `main`) the same measurement is
made with the source of that git revision (extracted with `git archive`), interleaved with the
working tree's: baseline, new, baseline, new... against the same server, so a machine shared
with other work slows both alike. The headline is the median over `--repeat` rounds.

Usage: .venv/bin/python bench/bench_call_cpu.py [--quick] [--baseline REV|none]
       [--latency 0.2 --latency 1.0] [--concurrency 64] [--limit 512] [--repeat 2]
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def child(spec: dict[str, Any]) -> None:
    """One measured run in this process; prints one JSON line."""
    import asyncio
    import resource
    import time

    from toolplay.catalog import build_catalog
    from toolplay.runs import RunConfig, execute_run
    from toolplay.runs._select import select_scenarios
    from toolplay.store import RunStore

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    marks: dict[str, float] = {}

    def progress(finished: int, total: int) -> None:
        if "start" not in marks:
            marks["start"], marks["cpu_start"] = time.perf_counter(), cpu()
        marks["last"] = time.perf_counter()

    cpu0 = cpu()
    config = RunConfig(
        suite=spec["suite"],
        assistant="openai:bench",
        out=Path(spec["out"]),
        limit=spec["limit"],
        concurrency=spec["concurrency"],
        trials=spec["trials"],
        options={"base_url": spec["base_url"], "max_retries": 0, "timeout": 120},
    )
    # Start-up, paid once per process: imports (some lazy, on the first call or score of a
    # scenario that needs them), the suite, the registries. A warm-up run of the same
    # scenarios pays it all before the measured run.
    warm = config.model_copy(update={"out": Path(spec["out"] + "-warm")})
    asyncio.run(execute_run(warm))
    startup = cpu() - cpu0
    summary = asyncio.run(execute_run(config, progress=progress))
    cpu_end = cpu()
    store = RunStore.in_dir(Path(spec["out"]))
    try:
        stored = {
            (r.scenario_id, r.trial): int(r.trajectory["usage"]["calls"]) for r in store.results()
        }
    finally:
        store.close()
    # the order the runner started them in: the selected scenarios, each with its trials
    suite = build_catalog().load_suite(spec["suite"])
    started = [
        (s.id, t) for s in select_scenarios(suite, spec["limit"], []) for t in range(spec["trials"])
    ]
    per_trial = [stored[key] for key in started]
    calls = sum(per_trial)
    print(
        json.dumps(
            {
                "calls": calls,
                "conversations": len(per_trial),
                "errors": summary.errors,
                "score": summary.metrics.model_dump(mode="json"),
                "cpu_ms_per_call": 1000 * (cpu_end - marks["cpu_start"]) / calls,
                "startup_cpu_s": startup,
                "seconds": marks["last"] - marks["start"],
                "per_trial": per_trial,
            }
        )
    )


def ideal_makespan(order: list[int], latency: float, slots: int) -> float:
    """Seconds a zero-cost harness needs: conversations of `order[k]` calls, in that order."""
    free = [0.0] * slots
    end = 0.0
    for calls in order:
        start = heapq.heappop(free)
        finish = start + calls * latency
        end = max(end, finish)
        heapq.heappush(free, finish)
    return end


def extract(rev: str, into: Path) -> Path:
    """The `src/` of git revision `rev`, written under `into`."""
    into.mkdir(parents=True, exist_ok=True)
    archive = into / "src.tar"
    with archive.open("wb") as handle:
        subprocess.run(["git", "-C", str(REPO), "archive", rev, "src"], stdout=handle, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def start_server(
    suite: str, latency: float, extra: Sequence[str] = ()
) -> tuple[subprocess.Popen[str], str]:
    """The test endpoint (this tree's) in its own process, `extra` its further options (e.g.
    `--text ANSWER`); returns it and its base URL.
    """
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    args = ["--suite", suite, "--latency", str(latency), *extra]
    process = subprocess.Popen(
        [sys.executable, "-m", "toolplay.testing", *args],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("serving "):
        process.kill()
        raise RuntimeError(f"test server did not start: {line!r}")
    return process, line.split()[1]


def measure(src: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """Run `child(spec)` with the toolplay source at `src`."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(spec)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"measurement failed:\n{proc.stderr[-3000:]}")
    row: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    if row["errors"]:
        raise RuntimeError(f"{row['errors']} conversation(s) failed")
    order = row.pop("per_trial")
    ideal = ideal_makespan(order, spec["latency"], spec["concurrency"])
    row["fraction_of_ideal"] = ideal / row["seconds"]
    row["naive_fraction"] = (row["calls"] / row["seconds"]) / (
        spec["concurrency"] / spec["latency"]
    )
    return row


def main() -> None:
    """Interleave baseline and new per latency; print a table and a JSON headline line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="128 scenarios, 0.2 s, 1 round")
    parser.add_argument("--baseline", default="main", help="git revision, or none")
    parser.add_argument("--latency", type=float, action="append")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--suite", default="sandbox")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=None)
    args = parser.parse_args()
    if args.child:
        child(json.loads(args.child))
        return
    latencies = args.latency or ([0.2] if args.quick else [0.2, 1.0])
    limit = args.limit or (128 if args.quick else 512)
    repeat = args.repeat or (1 if args.quick else 2)
    headline: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        variants = {"new": REPO / "src"}
        if args.baseline != "none":
            variants = {"baseline": extract(args.baseline, Path(tmp) / "base"), **variants}
        print(
            f"{'latency':>7} {'variant':>8} {'calls':>6} {'seconds':>8} {'cpu ms/call':>11} "
            f"{'startup s':>9} {'fraction':>8} {'naive':>6}",
            flush=True,
        )
        for latency in latencies:
            server, base_url = start_server(args.suite, latency)
            rows: dict[str, list[dict[str, Any]]] = {name: [] for name in variants}
            try:
                for round_ in range(repeat):
                    for name, src in variants.items():
                        spec = {
                            "suite": args.suite,
                            "limit": limit,
                            "trials": 1,
                            "concurrency": args.concurrency,
                            "latency": latency,
                            "base_url": base_url,
                            "out": str(Path(tmp) / f"{name}-{latency}-{round_}"),
                        }
                        row = measure(src, spec)
                        rows[name].append(row)
                        print(
                            f"{latency:>6.2f}s {name:>8} {row['calls']:>6} "
                            f"{row['seconds']:>8.2f} {row['cpu_ms_per_call']:>11.2f} "
                            f"{row['startup_cpu_s']:>9.2f} {row['fraction_of_ideal']:>8.3f} "
                            f"{row['naive_fraction']:>6.3f}",
                            flush=True,
                        )
            finally:
                server.terminate()
                server.wait(timeout=10)
            scores = {json.dumps(r["score"], sort_keys=True) for rs in rows.values() for r in rs}
            if len(scores) != 1:
                raise RuntimeError(f"the variants' scores differ: {sorted(scores)}")
            for name, results in rows.items():
                tag = f"{name}_latency{latency:g}_c{args.concurrency}"
                headline[f"{tag}_cpu_ms_per_call"] = round(
                    statistics.median(r["cpu_ms_per_call"] for r in results), 3
                )
                headline[f"{tag}_fraction"] = round(
                    statistics.median(r["fraction_of_ideal"] for r in results), 3
                )
    print("scores identical across variants and rounds")
    print(
        "fraction = ideal makespan (same conversations, C slots, zero-cost harness) / measured; "
        "naive = calls/s over C/latency"
    )
    print(json.dumps(headline))


if __name__ == "__main__":
    main()
