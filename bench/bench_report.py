"""Benchmark: the HTML report of the oracle on the full `sandbox` suite (2,848 trials).

Plays the oracle on the suite into a temporary run directory, then builds its report and
measures: the report file's size, against the same data as plain JSON (the baseline: what a
report carried before its data was packed, measured in the same run from the same entries),
the time to load the run and to build the page (CPU time beside wall time, as the machine
may be shared), and the largest chunk a browser inflates when one conversation is opened.

Run: .venv/bin/python bench/bench_report.py [--quick]   (--quick: the first 500 scenarios)
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from toolplay.analysis import load_run
from toolplay.report import build_report
from toolplay.report._html import _entry, _scorers
from toolplay.report._page import script_json
from toolplay.report._payload import pack_entries, unpack_payload
from toolplay.runs import RunConfig, execute_run


def main() -> dict[str, Any]:
    quick = "--quick" in sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        config = RunConfig(
            suite="sandbox", assistant="oracle", out=out, limit=500 if quick else None
        )
        asyncio.run(execute_run(config))
        wall, cpu = time.perf_counter(), time.process_time()
        run = load_run(out)
        load_wall, load_cpu = time.perf_counter() - wall, time.process_time() - cpu
        wall, cpu = time.perf_counter(), time.process_time()
        html = build_report(run)
        build_wall, build_cpu = time.perf_counter() - wall, time.process_time() - cpu
    scorers = _scorers(run)
    entries = [_entry(e, scorers) for e in run.entries]
    plain = len(str(script_json({"entries": entries})).encode("utf-8"))
    packed = pack_entries(entries)
    assert unpack_payload(packed)["entries"] == json.loads(json.dumps(entries, default=str))
    size = len(html.encode("utf-8"))
    chunk = max(len(c) for c in packed["chunks"])
    print(f"trials: {len(entries)}")
    print(f"baseline: the entries as plain JSON {plain / 1e6:.2f} MB")
    print(f"report.html: {size / 1e6:.2f} MB ({plain / size:.1f}x smaller than the baseline)")
    print(f"largest chunk: {chunk / 1e3:.0f} kB of base64 (inflated when a scenario is opened)")
    print(f"load_run: {load_wall:.2f} s wall / {load_cpu:.2f} s CPU")
    print(f"build_report: {build_wall:.2f} s wall / {build_cpu:.2f} s CPU")
    return {
        "trials": len(entries),
        "report_mb": round(size / 1e6, 3),
        "plain_json_mb": round(plain / 1e6, 3),
        "build_cpu_s": round(build_cpu, 2),
    }


if __name__ == "__main__":
    print(json.dumps(main()))
