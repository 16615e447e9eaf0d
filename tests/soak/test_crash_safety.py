"""Crash safety: a run SIGKILLed again and again, at seeded points, resumes to the same bytes.

Each round forks a fresh `toolplay run` (from a warmed-up process, `warm_forker.py`) against a
test endpoint with a little latency, and kills it: either from outside once a seeded number of
further trials is committed, or from inside at a chosen store write — a run file written to its
temporary name but not yet renamed (`rename`), a store transaction written but not committed
(`before_commit`), or while SQLite commits and syncs its log (`mid_commit`). The next round
resumes, until one finishes. Then nothing may be lost or doubled: every (scenario, trial)
stored once and intact, none that was committed before a kill played again, every trajectory
file present once and identical to an uninterrupted run's, no temporary file left, and
summary.json byte-identical.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import signal
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support import committed_keys, load_suite, open_store_files
from toolplay.store import (
    RunStore,
    temporary_files,
    trajectory_path,
)
from toolplay.testing import (
    ChatServer,
    RecordedRequest,
    ReferenceResponder,
)

from .conftest import Forker

logger = logging.getLogger(__name__)

QUICK = load_suite("quick").scenarios
SEED = 100  # sampling seed sent to the endpoint: seed - SEED is the trial
POINTS = ("external", "rename", "before_commit", "mid_commit")


def run_args(server: ChatServer, out: Path, trials: int, resume: bool) -> list[str]:
    return [
        "run",
        "--assistant",
        "openai:ref",
        "--base-url",
        server.base_url,
        "--trials",
        str(trials),
        "--seed",
        str(SEED),
        "--concurrency",
        "4",
        "--out",
        str(out),
        *(["--resume"] if resume else []),
    ]


def committed(out: Path) -> dict[tuple[str, int], str]:
    """(scenario, trial) → stored digest, as a resuming process will find the store.

    Read from a copy of the store and its log, so that recovering the log after a kill is
    left to the resuming toolplay itself.
    """
    path = out / RunStore.FILENAME
    if not path.exists():
        return {}
    assert not open_store_files(out)  # else copying would drop this process's locks on them
    copy = out.parent / "inspect" / RunStore.FILENAME
    shutil.rmtree(copy.parent, ignore_errors=True)
    copy.parent.mkdir()
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{path}{suffix}").exists():
            shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
    with closing(sqlite3.connect(copy, timeout=30)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        try:
            rows = db.execute("SELECT scenario_id, trial, digest FROM results")
            return {(r[0], r[1]): r[2] for r in rows}
        except sqlite3.OperationalError:  # killed before the tables existed
            return {}


def played(requests: list[RecordedRequest]) -> set[tuple[str, int]]:
    """(scenario, trial) of every conversation the endpoint served: opening line and seed."""
    by_opening = {s.script[0]: s.id for s in QUICK}
    return {
        (by_opening[r.body["messages"][1]["content"]], r.body["seed"] - SEED)
        for r in server_requests(requests)
    }


def server_requests(requests: list[RecordedRequest]) -> list[RecordedRequest]:
    return [r for r in requests if isinstance(r.body, dict)]


@dataclass
class Kill:
    point: str
    at: float
    committed_before: int
    left_temporary: list[str] = field(default_factory=list)
    files_ahead_of_store: int = 0
    committed_after: int = 0
    log_left: bool = False


def kill_plan(rng: random.Random, kills: int) -> list[tuple[str, float]]:
    """`kills` (point, when) pairs: every point at least once, in seeded order."""
    points = [POINTS[i % len(POINTS)] for i in range(kills)]
    rng.shuffle(points)
    return [(p, rng.randint(1, 12) if p == "external" else rng.randint(2, 10)) for p in points]


def kill_and_resume(
    server: ChatServer, forker: Forker, root: Path, *, trials: int, kills: int, seed: int
) -> list[Kill]:
    """Run to the end, killed `kills` times on the way; return what each kill left behind."""
    out = root / "killed"
    rng = random.Random(seed)
    plan = kill_plan(rng, kills)
    done: list[Kill] = []
    total = len(QUICK) * trials
    for _ in range(kills + 20):
        before = committed(out)
        server.requests.clear()
        args = run_args(server, out, trials, resume=(out / RunStore.FILENAME).exists())
        if len(done) == kills:  # the last round runs to the end
            pid = forker.start(args, root)
            assert forker.wait(pid) == 0, forker.log.read_text()[-3000:]
            assert played(server.requests).isdisjoint(before)
            return done
        point, when = plan[len(done)]
        if point == "external":
            # from outside, once `when` more trials are committed: a moment of the run, not
            # of the clock (trials that queue up are committed together, so a run's last
            # half second may hold most of it)
            pid = forker.start(args, root)
            deadline = time.monotonic() + 60
            ended = None  # the child's code once `poll` has seen it end (and reaped it)
            while len(committed_ro(out)) < len(before) + when:
                if (ended := forker.poll(pid)) is not None:
                    break
                assert time.monotonic() < deadline, "no progress"
                time.sleep(0.002)
            # Killed only while unreaped (running, or exited but not yet waited for), so the
            # signal cannot miss it nor reach a reused pid; a run that ended by itself (`poll`
            # reaped it) is judged by its exit code below.
            if ended is None:
                os.kill(pid, signal.SIGKILL)
            code = forker.wait(pid) if ended is None else ended
        else:
            kill = {"point": point, "at": when, "delay": rng.uniform(0.0, 0.002)}
            pid = forker.start(args, root, kill)
            code = forker.wait(pid)
        assert played(server.requests).isdisjoint(before)  # nothing committed is played again
        after = committed(out)
        assert all(after[key] == digest for key, digest in before.items())  # nothing lost
        if code == 0:  # finished before the kill point: a complete run
            assert len(after) == total
            return done
        assert code == -signal.SIGKILL, forker.log.read_text()[-3000:]
        left = [p.name for p in temporary_files(out)]
        record = Kill(point, when, len(before), left, 0, len(after))
        files = {p.name for p in (out / "trajectories").glob("*.jsonl")}
        stored = {trajectory_path(out, s, t).name for s, t in after}
        record.files_ahead_of_store = len(files - stored)
        record.log_left = Path(f"{out / RunStore.FILENAME}-wal").exists()
        done.append(record)
    raise AssertionError("the run never finished")


def committed_ro(out: Path) -> set[tuple[str, int]]:
    """Keys committed so far, read without disturbing a running writer."""
    return committed_keys(out, status=None)


def check_identical(root: Path, trials: int) -> None:
    whole, out = root / "whole", root / "killed"
    assert not open_store_files(out)  # a lingering peek would lend this read a stale index
    store = RunStore.in_dir(out)
    try:
        results = store.results()  # every row passes its checksum
    finally:
        store.close()
    keys = [(r.scenario_id, r.trial) for r in results]
    assert sorted(keys) == sorted((s.id, t) for s in QUICK for t in range(trials))
    assert {r.status for r in results} == {"done"}
    names = sorted(p.name for p in (out / "trajectories").iterdir())
    assert names == sorted(trajectory_path(out, s, t).name for s, t in keys)  # once each
    for name in names:
        text = (out / "trajectories" / name).read_text()
        assert [json.loads(line)["type"] for line in text.splitlines()][0] == "header"
        assert text == (whole / "trajectories" / name).read_text(), name
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    assert (out / "summary.json").read_bytes() == (whole / "summary.json").read_bytes()


def crash_test(tmp_path: Path, forker: Forker, *, trials: int, kills: int, seed: int) -> None:
    with ChatServer(ReferenceResponder(QUICK), latency=0.02) as server:
        pid = forker.start(run_args(server, tmp_path / "whole", trials, False), tmp_path)
        assert forker.wait(pid) == 0, forker.log.read_text()[-3000:]
        started = time.monotonic()
        record = kill_and_resume(server, forker, tmp_path, trials=trials, kills=kills, seed=seed)
    logger.info("%d kills in %.1fs: %s", len(record), time.monotonic() - started, record)
    assert len(record) == kills, f"the run finished after {len(record)} of {kills} kills"
    moments = {(k.committed_before, k.point, k.at) for k in record}
    assert len(moments) == kills  # each kill at another moment of the run
    # Some kills landed inside a store write: a temporary file (an atomic write cut short)
    # or a trajectory file for a trial the store had not committed yet.
    assert any(k.left_temporary for k in record if k.point == "rename")
    check_identical(tmp_path, trials)


def test_killed_repeatedly_and_resumed_the_run_equals_an_uninterrupted_one(
    tmp_path: Path, forker: Forker
) -> None:
    crash_test(tmp_path, forker, trials=24, kills=6, seed=1)


@pytest.mark.slow
def test_thirty_kills(tmp_path: Path, forker: Forker) -> None:
    # trials that queue up share a commit, so a round gets further before its N-th commit:
    # enough trials that thirty rounds end before the run does
    crash_test(tmp_path, forker, trials=240, kills=30, seed=2)
