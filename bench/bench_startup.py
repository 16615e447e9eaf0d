"""Benchmark: how soon a new user's commands answer (issue 14 item 15, issue 24 item 7).

Times, each in a fresh process, the median of several rounds:

- `toolplay --help` and `toolplay suites` to the end (targets: < 0.3 s and < 0.5 s);
- `toolplay run --suite sandbox --limit 1` until the assistant's first model call (a
  `python:` assistant notes the moment, wall and the process's CPU time; target < 1 s);
- baselines: a bare interpreter (`python -c pass`) and importing the CLI.

**Against the code before, in the same run**: with `--baseline REV` (default `main`) every
measurement is also made with the `src/` of that git revision (extracted with `git archive`),
interleaved round by round with the working tree's, so a machine shared with other work slows
both alike. CPU time is reported beside wall time for the same reason.

Byte code: each variant's modules are compiled once before measuring (a warm-up run with
`PYTHONDONTWRITEBYTECODE` unset), as an installed package's are; a session that sets that
variable would otherwise recompile every module on every start.

Run: .venv/bin/python bench/bench_startup.py [--quick] [--baseline REV|none]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from bench_call_cpu import extract  # noqa: E402  (a sibling script: a revision's src/)

AGENT = """
import os, time

def first(messages, tools):
    mark = os.environ["TOOLPLAY_BENCH_MARK"]
    if not os.path.exists(mark):
        with open(mark, "w") as handle:
            handle.write(f"{time.time()} {time.process_time()}")
    return "Done."
"""
TARGETS = {"toolplay --help": 0.3, "toolplay suites": 0.5, "run: first model call": 1.0}


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def environment(src: Path) -> dict[str, str]:
    """This environment, importing toolplay from `src`, writing byte code."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(src), "COLUMNS": "80"}


def timed(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    cpu, wall = child_cpu(), time.perf_counter()
    subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - wall, child_cpu() - cpu


def first_call(root: Path, env: dict[str, str], tag: str) -> tuple[float, float]:
    """Wall and CPU seconds from process start to the first model call."""
    mark = root / f"mark-{tag}"
    mark.unlink(missing_ok=True)
    args = [sys.executable, "-m", "toolplay.cli", "run", "--suite", "sandbox", "--limit", "1"]
    args += ["--assistant", f"python:{root / 'agent.py'}:first", "--out", str(root / tag)]
    started = time.time()  # noqa: TID251 (a benchmark compares with the child's clock)
    subprocess.run(
        args,
        cwd=root,
        env={**env, "TOOLPLAY_BENCH_MARK": str(mark)},
        check=True,
        capture_output=True,
    )
    at, cpu = (float(v) for v in mark.read_text().split())
    return at - started, cpu


def measure(root: Path, src: Path, tag: str) -> dict[str, tuple[float, float]]:
    """One round of every measurement with the toolplay of `src`."""
    env, py = environment(src), sys.executable
    cli = [py, "-m", "toolplay.cli"]
    return {
        "python -c pass": timed([py, "-c", "pass"], root, env),
        "import toolplay.cli": timed([py, "-c", "import toolplay.cli"], root, env),
        "toolplay --help": timed([*cli, "--help"], root, env),
        "toolplay suites": timed([*cli, "suites"], root, env),
        "run: first model call": first_call(root, env, tag),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds, not 7")
    parser.add_argument("--baseline", default="main", help="git revision, or none")
    args = parser.parse_args()
    rounds = 3 if args.quick else 7
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "agent.py").write_text(AGENT)
        variants = {"new": REPO / "src"}
        if args.baseline != "none":
            variants = {"baseline": extract(args.baseline, root / "base"), **variants}
        for name, src in variants.items():  # byte code written, caches warm
            measure(root, src, f"warm-{name}")
        found: dict[str, dict[str, list[tuple[float, float]]]] = {v: {} for v in variants}
        for n in range(rounds):
            for name, src in variants.items():
                for what, value in measure(root, src, f"{name}{n}").items():
                    found[name].setdefault(what, []).append(value)
    med = {
        name: {
            what: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
            for what, rows in measures.items()
        }
        for name, measures in found.items()
    }
    print(f"median of {rounds} rounds, each a fresh process; wall / CPU seconds")
    header = "".join(f"{name:>20s}" for name in med)
    print(f"  {'':28s}{header}   target")
    for what in med["new"]:
        cells = "".join(f"{w:11.3f} / {c:5.3f}" for w, c in (med[v][what] for v in med))
        target = TARGETS.get(what)
        verdict = ""
        if target is not None:
            verdict = f"< {target} s: {'met' if med['new'][what][0] < target else 'not met'}"
        print(f"  {what:28s}{cells}   {verdict}")
    print(
        json.dumps(
            {v: {k: [round(w, 3), round(c, 3)] for k, (w, c) in m.items()} for v, m in med.items()}
        )
    )


if __name__ == "__main__":
    main()
