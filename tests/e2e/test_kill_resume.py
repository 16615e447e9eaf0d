"""A run killed midway (SIGKILL) and resumed equals an uninterrupted run, with nothing redone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from support import committed_keys, load_suite
from toolplay.store import RunStore
from toolplay.testing import (
    ChatServer,
    ReferenceResponder,
)

QUICK = load_suite("quick").scenarios
TRIALS = 3
SEED = 100


def command(server: ChatServer, out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "toolplay.cli",
        "run",
        "--assistant",
        "openai:ref",
        "--base-url",
        server.base_url,
        "--trials",
        str(TRIALS),
        "--seed",
        str(SEED),
        "--concurrency",
        "2",
        "--out",
        str(out),
        *extra,
    ]


def done_keys(out: Path) -> set[tuple[str, int]]:
    return committed_keys(out)


def conversations(server: ChatServer) -> set[tuple[str, int]]:
    """(scenario, trial) of every assistant request: opening line and seed identify them."""
    by_opening = {s.script[0]: s.id for s in QUICK}
    return {
        (by_opening[r.body["messages"][1]["content"]], r.body["seed"] - SEED)
        for r in server.requests
    }


def test_kill_and_resume_scores_every_trial_once_with_an_identical_summary(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "COLUMNS": "200"}
    total = len(QUICK) * TRIALS
    with ChatServer(ReferenceResponder(QUICK), latency=0.15) as server:
        subprocess.run(
            command(server, tmp_path / "whole"),
            env=env,
            check=True,
            timeout=300,
            capture_output=True,
        )
        server.requests.clear()

        out = tmp_path / "killed"
        process = subprocess.Popen(
            command(server, out), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 240
        while len(done_keys(out)) < 4 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        process.kill()
        process.wait(timeout=30)
        finished_before = done_keys(out)
        assert 4 <= len(finished_before) < total, "the run was not interrupted midway"
        assert not (out / "summary.json").exists()

        server.requests.clear()
        resumed = subprocess.run(
            command(server, out, "--resume"), env=env, timeout=300, capture_output=True, text=True
        )
        assert resumed.returncode == 0, resumed.stderr
        replayed = conversations(server)

    assert replayed.isdisjoint(finished_before)  # nothing finished was played again
    assert replayed | finished_before == {(s.id, t) for s in QUICK for t in range(TRIALS)}
    store = RunStore.in_dir(out)
    try:
        results = store.results()
    finally:
        store.close()
    assert len(results) == total and {r.status for r in results} == {"done"}
    assert len(list((out / "trajectories").glob("*.jsonl"))) == total
    assert (out / "summary.json").read_bytes() == (tmp_path / "whole" / "summary.json").read_bytes()
