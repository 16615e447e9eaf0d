"""Run store: idempotent keyed writes, errors retried, unreadable stores refused."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from toolplay.store import (
    RunStore,
    StoreError,
)


def test_results_are_keyed_and_replaced_not_duplicated(tmp_path: Path) -> None:
    store = RunStore.in_dir(tmp_path, create=True)
    store.save_result("s1", 0, status="error", trajectory={"a": 1}, score=None, error="429")
    assert store.done() == set()
    store.save_result("s1", 0, status="done", trajectory={"a": 2}, score={"score": 1.0})
    store.save_result("s2", 1, status="done", trajectory={}, score={"score": 0.5})
    assert store.done() == {("s1", 0), ("s2", 1)}
    results = store.results()
    assert [(r.scenario_id, r.trial, r.trajectory) for r in results] == [
        ("s1", 0, {"a": 2}),
        ("s2", 1, {}),
    ]
    store.close()
    reopened = RunStore.in_dir(tmp_path)
    assert len(reopened.results()) == 2
    reopened.close()


def test_meta_round_trip(tmp_path: Path) -> None:
    store = RunStore.in_dir(tmp_path, create=True)
    store.set_meta("config", {"suite": "quick"})
    assert store.get_meta("config") == {"suite": "quick"}
    store.close()


def test_missing_garbage_and_future_stores_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no run store here"):
        RunStore.in_dir(tmp_path / "nothing")
    garbage = tmp_path / "g"
    garbage.mkdir()
    (garbage / RunStore.FILENAME).write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a readable run store"):
        RunStore.in_dir(garbage)
    future = tmp_path / "f"
    future.mkdir()
    RunStore.in_dir(future, create=True).close()
    with closing(sqlite3.connect(future / RunStore.FILENAME)) as db, db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match="store schema 99"):
        RunStore.in_dir(future)
