"""Throughput of the run machinery against an endpoint with a fixed artificial latency.

Many conversations (the quick suite × trials) are played with the OpenAI-compatible assistant
against `toolplay.testing.ChatServer` on 127.0.0.1, started in its own process as a real
endpoint would be, which answers every request after exactly `--latency` seconds with the
reference solution. A conversation's model calls are sequential,
so with C conversations in flight the best possible rate is C / latency calls per second; the
report gives the measured rate as a fraction of that ideal at concurrency 1, 16 and 64. The
whole pipeline is in the measurement: HTTP client and server, retries layer, tool execution,
scoring, the SQLite store (one transaction per finished conversation) and trajectory files.

Usage: .venv/bin/python bench/bench_throughput.py [--quick] [--latency SECONDS ...]
(default: 1 s, a typical model call; 0.5 s, a fast endpoint; 0.1 s, which exposes the
harness's own cost on this 2-core machine, where the test server shares the CPU)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import tempfile
import time
from pathlib import Path

from bench_call_cpu import start_server

from toolplay.catalog import build_catalog
from toolplay.runs import RunConfig, execute_run

LEVELS = (1, 16, 64)


def measure(
    base_url: str, latency: float, concurrency: int, conversations: int, out: Path
) -> dict[str, float]:
    """Play about `conversations` conversations at `concurrency`; return rate and ideal."""
    scenarios = len(build_catalog().load_suite("quick").entries())
    trials = max(1, math.ceil(conversations / scenarios))
    config = RunConfig(
        suite="quick",
        assistant="openai:bench",
        out=out,
        concurrency=concurrency,
        trials=trials,
        options={"base_url": base_url, "max_retries": 0},
    )
    start = time.perf_counter()
    summary = asyncio.run(execute_run(config))
    elapsed = time.perf_counter() - start
    if summary.errors:
        raise RuntimeError(f"{summary.errors} conversation(s) failed: {summary.error_list[:1]}")
    calls = summary.usage.calls
    rate = calls / elapsed
    ideal = concurrency / latency
    return {
        "concurrency": concurrency,
        "conversations": scenarios * trials,
        "calls": calls,
        "seconds": elapsed,
        "calls_per_s": rate,
        "ideal_calls_per_s": ideal,
        "fraction_of_ideal": rate / ideal,
    }


def main() -> None:
    """Run the three levels per latency; print a table, then a JSON line of headline numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer conversations, 0.1 s only")
    parser.add_argument(
        "--latency", type=float, action="append", help="seconds per request (repeatable)"
    )
    args = parser.parse_args()
    latencies = args.latency or ([0.1] if args.quick else [1.0, 0.5, 0.1])
    per_slot = 4 if args.quick else 8  # conversations per concurrent slot: keeps the pool full
    headline: dict[str, float] = {}
    print(
        f"{'latency':>7} {'concurrency':>11} {'conversations':>13} {'calls':>6} {'seconds':>8} "
        f"{'calls/s':>8} {'ideal':>7} {'fraction':>8}"
    )
    for latency in latencies:
        server, base_url = start_server("quick", latency)
        try:
            with tempfile.TemporaryDirectory() as tmp:
                for level in LEVELS:
                    out = Path(tmp) / f"c{level}"
                    row = measure(base_url, latency, level, max(20, per_slot * level), out)
                    print(
                        f"{latency:>6.2f}s {level:>11} {row['conversations']:>13} "
                        f"{row['calls']:>6} {row['seconds']:>8.2f} {row['calls_per_s']:>8.1f} "
                        f"{row['ideal_calls_per_s']:>7.0f} {row['fraction_of_ideal']:>8.2f}",
                        flush=True,
                    )
                    headline[f"latency{latency:g}_c{level}"] = round(row["fraction_of_ideal"], 3)
        finally:
            server.terminate()
            server.wait(timeout=10)
    print("ideal = concurrency / latency (model calls per second)")
    print(json.dumps(headline))


if __name__ == "__main__":
    main()
