"""Benchmark: how soon a new user's first command does something (issue 14, item 15).

Times, each in a fresh process, median of several: `toolplay run --suite sandbox --limit 1`
until the assistant's first model call (a `python:` assistant notes the moment, wall and
the process's CPU time), and `toolplay suites` to the end. Baselines measured in the same
run: a bare interpreter (`python -c pass`), importing the CLI (`import toolplay.cli`), and
building the full sandbox suite (what `--limit 1` and `suites` used to wait for). CPU time
is reported beside wall time, because the machine may be shared. Target: < 1 s to the first
model call.

Run: .venv/bin/python bench/bench_startup.py [--quick]   (--quick: 3 repetitions, not 7)
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

AGENT = """
import os, time

def first(messages, tools):
    mark = os.environ["TOOLPLAY_BENCH_MARK"]
    if not os.path.exists(mark):
        with open(mark, "w") as handle:
            handle.write(f"{time.time()} {time.process_time()}")
    return "Done."
"""
FULL_BUILD = (
    "import time; t = time.process_time(); from toolplay.catalog import build_catalog; "
    "from toolplay.scenarios import DATA, expand_variants, load_scenario_paths; "
    "c = build_catalog(); x = c.load_context(); "
    "bases = load_scenario_paths([DATA / 'sandbox'], x); "
    "s = time.process_time(); expand_variants(bases, x); print(time.process_time() - s)"
)


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    cpu, wall = child_cpu(), time.perf_counter()
    subprocess.run(args, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - wall, child_cpu() - cpu


def first_call(root: Path, n: int) -> tuple[float, float]:
    """Wall and CPU seconds from process start to the first model call."""
    mark = root / f"mark{n}"
    env = {**os.environ, "TOOLPLAY_BENCH_MARK": str(mark)}
    args = [sys.executable, "-m", "toolplay.cli", "run", "--suite", "sandbox", "--limit", "1"]
    args += ["--assistant", f"python:{root / 'agent.py'}:first", "--out", str(root / f"r{n}")]
    started = time.time()  # noqa: TID251 (a benchmark compares with the child's clock)
    subprocess.run(args, cwd=root, env=env, check=True, capture_output=True)
    at, cpu = (float(v) for v in mark.read_text().split())
    return at - started, cpu


def main() -> None:
    repeat = 3 if "--quick" in sys.argv[1:] else 7
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "agent.py").write_text(AGENT)
        py = sys.executable
        bare = [timed([py, "-c", "pass"], root) for _ in range(repeat)]
        imports = [timed([py, "-c", "import toolplay.cli"], root) for _ in range(repeat)]
        firsts = [first_call(root, n) for n in range(repeat)]
        suites = [timed([py, "-m", "toolplay.cli", "suites"], root) for _ in range(repeat)]
        full = subprocess.run([py, "-c", FULL_BUILD], capture_output=True, text=True, check=True)
    med = {
        name: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
        for name, rows in {
            "python -c pass": bare,
            "import toolplay.cli": imports,
            "run --limit 1: first model call": firsts,
            "toolplay suites": suites,
        }.items()
    }
    print(f"median of {repeat} runs, each in a fresh process (wall / CPU seconds)")
    for name, (wall, cpu) in med.items():
        print(f"  {name:34s} {wall:6.2f} / {cpu:5.2f}")
    print(f"  {'full sandbox build (old path)':34s}   cpu {float(full.stdout):5.2f}")
    wall, cpu = med["run --limit 1: first model call"]
    print(f"target: first model call < 1 s: {'met' if wall < 1.0 else 'not met'} ({wall:.2f} s)")
    print(
        json.dumps(
            {
                "first_call_wall_s": round(wall, 3),
                "first_call_cpu_s": round(cpu, 3),
                "suites_wall_s": round(med["toolplay suites"][0], 3),
                "import_cli_wall_s": round(med["import toolplay.cli"][0], 3),
                "python_wall_s": round(med["python -c pass"][0], 3),
                "full_build_cpu_s": round(float(full.stdout), 3),
            }
        )
    )


if __name__ == "__main__":
    main()
