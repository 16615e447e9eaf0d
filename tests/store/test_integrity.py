"""Store integrity: row digests catch silent damage, v1 stores migrate, one writer at a time."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from toolplay.store import (
    SCHEMA_VERSION,
    RunStore,
    StoreError,
    remove_temporary_files,
    row_digest,
    temporary_files,
    write_json,
)


def filled(tmp_path: Path) -> Path:
    store = RunStore.in_dir(tmp_path, create=True)
    store.save_result("a", 0, status="done", trajectory={"m": [1]}, score={"score": 1.0})
    store.save_result("b", 0, status="error", trajectory={}, score=None, error="HTTP 500")
    store.close()
    return tmp_path / RunStore.FILENAME


def test_a_row_changed_behind_the_stores_back_is_refused_then_discarded(tmp_path: Path) -> None:
    path = filled(tmp_path)
    with closing(sqlite3.connect(path)) as db, db:  # valid JSON, wrong number: SQLite cannot tell
        db.execute("""UPDATE results SET score = '{"score": 0.0}' WHERE scenario_id = 'a'""")
    store = RunStore(path)
    with pytest.raises(StoreError, match=r"1 stored result\(s\) fail their checksum .*'a' trial 0"):
        store.results()
    assert store.done() == set()  # a damaged row is not done: resume plays it again
    assert store.damaged() == [("a", 0)]
    with pytest.raises(StoreError, match="checksum"):
        store.update_score("a", 0, {"score": 1.0})
    assert store.discard_damaged() == [("a", 0)]
    assert [r.scenario_id for r in store.results()] == ["b"]
    store.close()


def test_undecodable_text_is_damage_not_a_crash(tmp_path: Path) -> None:
    path = filled(tmp_path)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE results SET error = CAST(X'ff00fe' AS TEXT) WHERE scenario_id = 'b'")
    store = RunStore(path)
    assert store.damaged() == [("b", 0)] and store.done() == {("a", 0)}
    store.close()


def test_rescoring_keeps_the_digest_valid(tmp_path: Path) -> None:
    store = RunStore(filled(tmp_path))
    store.update_score("a", 0, {"score": 0.25})
    assert store.damaged() == [] and store.results()[0].score == {"score": 0.25}
    store.close()


def test_a_schema_1_store_is_migrated_and_sealed(tmp_path: Path) -> None:
    path = tmp_path / RunStore.FILENAME
    with closing(sqlite3.connect(path)) as db, db:  # the layout toolplay wrote before digests
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE results (scenario_id TEXT NOT NULL, trial INTEGER NOT NULL,"
            " status TEXT NOT NULL, trajectory TEXT NOT NULL, score TEXT, error TEXT,"
            " PRIMARY KEY (scenario_id, trial));"
            "INSERT INTO meta VALUES ('schema_version', '1');"
            """INSERT INTO results VALUES ('a', 0, 'done', '{}', '{"score": 1.0}', NULL);"""
        )
    store = RunStore(path)
    assert store.get_meta("schema_version") == SCHEMA_VERSION == 2
    assert [r.score for r in store.results()] == [{"score": 1.0}]
    store.close()
    with closing(sqlite3.connect(path)) as db:
        digest = db.execute("SELECT digest FROM results").fetchone()[0]
    assert digest == row_digest("a", 0, "done", "{}", json.dumps({"score": 1.0}), None)


def test_only_one_writer_at_a_time(tmp_path: Path) -> None:
    first = RunStore.in_dir(tmp_path, create=True, exclusive=True)
    with pytest.raises(StoreError, match="another toolplay process is using this run"):
        RunStore.in_dir(tmp_path, exclusive=True)
    reader = RunStore.in_dir(tmp_path)  # reports read without the lock
    reader.close()
    first.close()
    RunStore.in_dir(tmp_path, exclusive=True).close()  # released on close


def test_a_malformed_database_is_a_store_error(tmp_path: Path) -> None:
    path = filled(tmp_path)
    data = bytearray(path.read_bytes())
    data[100:4096] = bytes(len(data[100:4096]))  # the schema page wiped
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="run.sqlite"):
        RunStore(path).results()


def test_leftover_temporary_files_of_the_run_are_found_and_removed(tmp_path: Path) -> None:
    write_json(tmp_path / "summary.json", {})
    (tmp_path / "trajectories").mkdir()
    leftovers = [
        tmp_path / ".summary.json.ab12cd34.tmp",
        tmp_path / ".config.json.zz.tmp",
        tmp_path / "trajectories" / ".s1.t0.jsonl.q1w2e3.tmp",
    ]
    for path in leftovers:
        path.write_text("half")
    other = tmp_path / ".report.html.x1.tmp"  # written by `toolplay report`, not the run
    other.write_text("x")
    assert temporary_files(tmp_path) == sorted(leftovers)
    assert remove_temporary_files(tmp_path) == 3
    assert temporary_files(tmp_path) == [] and other.exists()
    assert (tmp_path / "summary.json").exists()
