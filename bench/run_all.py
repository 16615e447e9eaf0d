"""Run every benchmark under bench/ (each `bench_*.py`, in its own process) and print a table.

Each benchmark prints its own report; its last line is a JSON object with the headline numbers,
which this script collects into one table (also written to bench/results.json).

Usage: .venv/bin/python bench/run_all.py [--quick]   (--quick passes --quick to each script)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    extra = ["--quick"] if "--quick" in sys.argv[1:] else []
    rows: dict[str, dict[str, object]] = {}
    failed = []
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"=== {script.name}", flush=True)
        proc = subprocess.run(
            [sys.executable, str(script), *extra], capture_output=True, text=True, check=False
        )
        print(proc.stdout, end="")
        if proc.returncode != 0:
            print(proc.stderr[-2000:], file=sys.stderr)
            failed.append(script.name)
            continue
        last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "{}"
        try:
            rows[script.stem] = json.loads(last)
        except json.JSONDecodeError:
            rows[script.stem] = {"note": "no JSON summary line"}
    (HERE / "results.json").write_text(json.dumps(rows, indent=2, sort_keys=True) + "\n")
    print("\n| benchmark | result |\n| --- | --- |")
    for name, values in rows.items():
        cells = ", ".join(f"{k}={v}" for k, v in values.items())
        print(f"| {name} | {cells} |")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
