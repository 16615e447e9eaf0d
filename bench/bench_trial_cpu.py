"""Harness CPU per scenario trial, short and long, and throughput at 64 conversations (issue 24).

Two kinds of sandbox trial against a 0.2 s endpoint in its own process (`python -m
toolplay.testing`): **short**, the endpoint answers every request in text (one call, the
conversation ends: what a fast, wrong model costs), and **long**, it plays the reference
solution (several calls). Each measurement is a fresh child process (`bench_call_cpu.child`:
a warm-up run of the same scenarios pays the start-up, libraries some scenarios load on
first use included, then the measured run, whole process: event loop, HTTP client,
conversations, scoring, the store's writer thread, the summary). Reported per trial:
CPU ms, calls, and the budget `2 ms + 0.5 ms per call`; and the fraction of ideal throughput
(the makespan a zero-cost harness would need for the same conversations on 64 slots, over
the measured one; target >= 0.90).

**Against the code before, in the same run**: `--baseline REV` (default `main`) measures that
revision's `src/` too, interleaved with the working tree's, against the same endpoints.

Usage: .venv/bin/python bench/bench_trial_cpu.py [--quick] [--baseline REV|none]
       [--limit 1024] [--latency 0.2] [--concurrency 64] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import bench_call_cpu as calls  # noqa: E402  (a sibling script: its child and ideal)

KINDS = {"short": ["--text", "Done."], "long": []}


def main() -> None:
    """Interleave baseline and new per kind; print a table and a JSON headline line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="256 scenarios, 1 round")
    parser.add_argument("--baseline", default="main", help="git revision, or none")
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=None)
    args = parser.parse_args()
    limit = args.limit or (256 if args.quick else 1024)
    repeat = args.repeat or (1 if args.quick else 2)
    headline: dict[str, float] = {}
    print(
        f"{'kind':>5} {'variant':>8} {'trials':>6} {'calls/trial':>11} {'cpu ms/trial':>12} "
        f"{'budget ms':>9} {'cpu ms/call':>11} {'seconds':>7} {'fraction':>8}",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as tmp:
        variants = {"new": REPO / "src"}
        if args.baseline != "none":
            variants = {"baseline": calls.extract(args.baseline, Path(tmp) / "base"), **variants}
        for kind, extra in KINDS.items():
            server, base_url = calls.start_server("sandbox", args.latency, extra)
            rows: dict[str, list[dict[str, Any]]] = {name: [] for name in variants}
            try:
                for round_ in range(repeat):
                    for name, src in variants.items():
                        spec = {
                            "suite": "sandbox",
                            "limit": limit,
                            "trials": 1,
                            "concurrency": args.concurrency,
                            "latency": args.latency,
                            "base_url": base_url,
                            "out": str(Path(tmp) / f"{kind}-{name}-{round_}"),
                        }
                        row = calls.measure(src, spec)
                        per_call = row["calls"] / row["conversations"]
                        row["cpu_ms_per_trial"] = row["cpu_ms_per_call"] * per_call
                        row["calls_per_trial"] = per_call
                        rows[name].append(row)
                        print(
                            f"{kind:>5} {name:>8} {row['conversations']:>6} {per_call:>11.2f} "
                            f"{row['cpu_ms_per_trial']:>12.2f} {2 + 0.5 * per_call:>9.2f} "
                            f"{row['cpu_ms_per_call']:>11.2f} {row['seconds']:>7.2f} "
                            f"{row['fraction_of_ideal']:>8.3f}",
                            flush=True,
                        )
            finally:
                server.terminate()
                server.wait(timeout=10)
            for name, results in rows.items():
                tag = f"{kind}_{name}"
                for key in ("cpu_ms_per_trial", "cpu_ms_per_call", "fraction_of_ideal"):
                    headline[f"{tag}_{key}"] = round(statistics.median(r[key] for r in results), 3)
    print(
        "budget = 2 ms + 0.5 ms per call; fraction = ideal makespan (same conversations, "
        f"{args.concurrency} slots, zero-cost harness) / measured (target >= 0.90)"
    )
    print(json.dumps(headline))


if __name__ == "__main__":
    main()
