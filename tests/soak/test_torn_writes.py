"""The store survives a torn write: toolplay recovers, or refuses in one line, never misreports.

Damage is done to copies of two real run directories (the quick suite, 4 trials, oracle): one
complete (its log checkpointed into run.sqlite) and one SIGKILLed midway (committed results
still in the write-ahead log). For each kind of damage, `toolplay score` and `toolplay run
--resume` must either end with exactly the uninterrupted run's summary and files, or exit
non-zero with a one-line `error:` naming the damaged file; a summary with other numbers is the
one outcome never allowed.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolplay.cli import app
from toolplay.store import (
    RunStore,
    temporary_files,
)

from .conftest import Forker

TRIALS = 4
RUN = ["run", "--trials", str(TRIALS)]  # quick suite, oracle assistant
Damage = Callable[[Path], None]


def cli(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "300", "HF_HUB_OFFLINE": "1"})
    return result.exit_code, [line for line in result.output.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("torn")
    code, lines = cli(*RUN, "--out", str(root / "whole"))
    assert code == 0, lines
    forker = Forker(root)
    try:  # the 12th transaction dies uncommitted: 3 for the run's metadata, then 8 results
        pid = forker.start(
            [*RUN, "--out", str(root / "killed")], root, {"point": "before_commit", "at": 12}
        )
        assert forker.wait(pid) == -9
    finally:
        forker.close()
    assert (root / "killed" / f"{RunStore.FILENAME}-wal").stat().st_size > 0
    yield root


def damaged_copy(runs: Path, source: str, damage: Damage, name: str) -> Path:
    target = runs / "cases" / name
    shutil.copytree(runs / source, target)
    damage(target)
    return target


def same_as_whole(runs: Path, out: Path) -> bool:
    whole = runs / "whole"
    if (out / "summary.json").read_bytes() != (whole / "summary.json").read_bytes():
        return False
    files = sorted(p.name for p in (out / "trajectories").iterdir())
    return files == sorted(p.name for p in (whole / "trajectories").iterdir()) and all(
        (out / "trajectories" / n).read_bytes() == (whole / "trajectories" / n).read_bytes()
        for n in files
    )


def assert_one_line_refusal(code: int, lines: list[str], *needles: str) -> None:
    assert code != 0 and len(lines) == 1 and lines[0].startswith("error:"), lines
    for needle in needles:
        assert needle in lines[0], lines


# ---- the write-ahead log of a killed run --------------------------------------------


def wal(out: Path) -> Path:
    return out / f"{RunStore.FILENAME}-wal"


def torn_tail(out: Path) -> None:  # the last frame half-written
    size = wal(out).stat().st_size
    with wal(out).open("r+b") as handle:
        handle.truncate(size - 1500)


def garbled_middle(out: Path) -> None:  # a frame in the middle overwritten
    data = bytearray(wal(out).read_bytes())
    middle = len(data) // 2
    data[middle : middle + 300] = random.Random(1).randbytes(300)
    wal(out).write_bytes(bytes(data))


def garbled_header(out: Path) -> None:  # the log header (salts, checksums) overwritten
    data = bytearray(wal(out).read_bytes())
    data[:32] = random.Random(2).randbytes(32)
    wal(out).write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [torn_tail, garbled_middle, garbled_header])
def test_a_damaged_log_loses_only_what_resume_plays_again(runs: Path, damage: Damage) -> None:
    out = damaged_copy(runs, "killed", damage, f"wal-{damage.__name__}")
    code, lines = cli("score", str(out))  # what is left reads cleanly and says what is missing
    if code == 0:
        summary = json.loads((out / "summary.json").read_text())
        assert summary["missing"] >= 1
        assert summary["completed"] + summary["errors"] + summary["missing"] == 5 * TRIALS
    else:  # nothing was ever checkpointed: without its log the store holds no run at all
        assert_one_line_refusal(code, lines, "holds no run configuration")
    code, lines = cli(*RUN, "--out", str(out), "--resume")
    assert code == 0, lines
    assert same_as_whole(runs, out)
    assert not temporary_files(out)


# ---- the database file of a complete run --------------------------------------------


def tail_garbled(out: Path) -> None:
    path = out / RunStore.FILENAME
    data = bytearray(path.read_bytes())
    data[-700:] = random.Random(3).randbytes(700)
    path.write_bytes(bytes(data))


def last_page_zeroed(out: Path) -> None:
    path = out / RunStore.FILENAME
    data = bytearray(path.read_bytes())
    data[-4096:] = bytes(4096)
    path.write_bytes(bytes(data))


def truncated(out: Path) -> None:
    path = out / RunStore.FILENAME
    with path.open("r+b") as handle:
        handle.truncate(path.stat().st_size - 3000)


def score_flipped(out: Path) -> None:
    """A stored score changed inside its page: still valid JSON, SQLite cannot tell."""
    path = out / RunStore.FILENAME
    data = path.read_bytes()
    at = data.index(b'"score": 1.0')
    path.write_bytes(data[:at] + b'"score": 0.0' + data[at + 12 :])
    with closing(sqlite3.connect(path)) as db:  # unprotected, this would read as a real 0.0
        scores = [json.loads(r[0])["score"] for r in db.execute("SELECT score FROM results")]
    assert 0.0 in scores and len(scores) == 5 * TRIALS


@pytest.mark.parametrize("damage", [tail_garbled, last_page_zeroed, truncated, score_flipped])
@pytest.mark.parametrize("command", ["score", "resume"])
def test_a_damaged_database_is_recovered_or_refused_never_misread(
    runs: Path, damage: Damage, command: str
) -> None:
    out = damaged_copy(runs, "whole", damage, f"db-{damage.__name__}-{command}")
    (out / "summary.json").unlink()
    args = ["score", str(out)] if command == "score" else [*RUN, "--out", str(out), "--resume"]
    code, lines = cli(*args)
    if code == 0:
        assert same_as_whole(runs, out), lines
    else:
        assert_one_line_refusal(code, lines, RunStore.FILENAME)
        assert not (out / "summary.json").exists()
    if damage is score_flipped:  # a checksum catches it: refused by score, replayed by resume
        assert code == (0 if command == "resume" else 2)
        if command == "score":
            assert "fail their checksum" in lines[0]


# ---- the files of a complete run ----------------------------------------------------


def files_torn(out: Path) -> None:
    trajectories = sorted((out / "trajectories").iterdir())
    half = trajectories[0].read_text()[:300]
    (out / "trajectories" / f".{trajectories[0].name}.k3x9q2ab.tmp").write_text(half)
    trajectories[1].write_text(trajectories[1].read_text()[:-200])  # cut short
    trajectories[2].unlink()
    text = trajectories[3].read_text()
    trajectories[3].write_text(text.replace('"score": 1.0', '"score": 0.5'))  # garbled
    summary = out / "summary.json"
    summary.write_bytes(summary.read_bytes()[:100])
    (out / ".summary.json.zz81kq0w.tmp").write_bytes(summary.read_bytes()[:50])


def test_a_torn_summary_is_refused_by_the_report_in_one_line(runs: Path) -> None:
    out = damaged_copy(runs, "whole", files_torn, "files-report")
    code, lines = cli("report", str(out))
    assert_one_line_refusal(code, lines, "summary.json")


@pytest.mark.parametrize("command", ["score", "resume"])
def test_torn_files_are_regenerated_from_the_store(runs: Path, command: str) -> None:
    out = damaged_copy(runs, "whole", files_torn, f"files-{command}")
    assert len(temporary_files(out)) == 2
    args = ["score", str(out)] if command == "score" else [*RUN, "--out", str(out), "--resume"]
    code, lines = cli(*args)
    assert code == 0, lines
    assert same_as_whole(runs, out)
    assert not temporary_files(out)
