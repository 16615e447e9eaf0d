"""`RunStore.results(keys=...)`: the picked keys of each trajectory, exactly as a full read.

The summary reads three keys of each stored trajectory through SQLite's JSON operator instead
of decoding every conversation; what it gets must be what the full read gives, damaged rows
must be refused the same way, and a SQLite too old for the operator must give the same too.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolplay.store import RunStore, StoreError

KEYS = ("termination", "error", "usage")

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)
_trajectories = st.dictionaries(st.sampled_from([*KEYS, "messages", "trial"]), _json, max_size=5)


def projected(results: list[Any]) -> list[tuple[Any, ...]]:
    return [
        (
            r.scenario_id,
            r.trial,
            r.status,
            {k: r.trajectory[k] for k in KEYS if k in r.trajectory},
            r.score,
            r.error,
        )
        for r in results
    ]


def plain(results: list[Any]) -> list[tuple[Any, ...]]:
    return [(r.scenario_id, r.trial, r.status, r.trajectory, r.score, r.error) for r in results]


@settings(max_examples=60, deadline=None)
@given(trajectories=st.lists(_trajectories, min_size=1, max_size=4))
def test_picked_keys_are_those_of_the_full_read(
    tmp_path_factory: pytest.TempPathFactory, trajectories: list[dict[str, Any]]
) -> None:
    store = RunStore.in_dir(tmp_path_factory.mktemp("run"), create=True)
    try:
        for n, trajectory in enumerate(trajectories):
            store.save_result(f"s{n}", 0, status="done", trajectory=trajectory, score={"x": n})
        picked = store.results(keys=KEYS)
        assert plain(picked) == projected(store.results())
        # types survive too (1 stays an int, 1.0 a float, True a bool)
        assert repr(plain(picked)) == repr(projected(store.results()))
    finally:
        store.close()


def test_an_old_sqlite_gets_the_same_from_a_full_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = RunStore.in_dir(tmp_path, create=True)
    trajectory = {"messages": [{"content": "é"}], "termination": "completed", "error": None}
    store.save_result("a", 0, status="done", trajectory=trajectory, score={"score": 1.0})
    expected = plain(store.results(keys=KEYS))
    assert expected == [
        ("a", 0, "done", {"termination": "completed", "error": None}, {"score": 1.0}, None)
    ]
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 31, 1))
    assert plain(store.results(keys=KEYS)) == expected
    store.close()


@pytest.mark.parametrize(
    "damage",
    [
        """UPDATE results SET trajectory = '{"termination": "completed"' WHERE scenario_id = 'a'""",
        """UPDATE results SET trajectory = '{"termination": "error"}' WHERE scenario_id = 'a'""",
    ],
    ids=["malformed-json", "valid-json-wrong-digest"],
)
def test_a_damaged_row_is_refused_as_by_the_full_read(tmp_path: Path, damage: str) -> None:
    store = RunStore.in_dir(tmp_path, create=True)
    store.save_result("a", 0, status="done", trajectory={"termination": "completed"}, score=None)
    store.close()
    with closing(sqlite3.connect(tmp_path / RunStore.FILENAME)) as db, db:
        db.execute(damage)
    store = RunStore.in_dir(tmp_path)
    with pytest.raises(StoreError) as full:
        store.results()
    with pytest.raises(StoreError) as picked:
        store.results(keys=KEYS)
    assert str(picked.value) == str(full.value)
    assert "fail their checksum" in str(full.value)
    store.close()


def test_only_field_names_are_picked(tmp_path: Path) -> None:
    store = RunStore.in_dir(tmp_path, create=True)
    store.save_result("a", 0, status="done", trajectory={}, score=None)
    with pytest.raises(ValueError, match="not a field name"):
        store.results(keys=["a' OR '1"])
    store.close()
