"""World: declared tables, change history, snapshots at message indices, rollback."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolplay.world import (
    TableSchema,
    World,
    WorldError,
    replay_changes,
)

CLOCK = datetime(2024, 5, 1, 9, 30, tzinfo=UTC)
SCHEMAS = {
    "notes": TableSchema("notes", ("note_id", "text"), key="note_id"),
    "tags": TableSchema("tags", ("tag",)),
}


def new_world(**kwargs: object) -> World:
    return World(SCHEMAS, {"notes": [{"note_id": "n0", "text": "first"}]}, clock=CLOCK, **kwargs)


def test_declared_columns_are_enforced_and_filled() -> None:
    world = new_world()
    row = world.insert("tags", {})
    assert dict(row) == {"tag": None}
    with pytest.raises(WorldError, match="no column"):
        world.insert("notes", {"note_id": "x", "colour": "red"})
    with pytest.raises(WorldError, match="unknown table"):
        world.rows("missing")


def test_rows_are_read_only() -> None:
    world = new_world()
    with pytest.raises(TypeError):
        world.rows("notes")[0]["text"] = "changed"  # type: ignore[index]


def test_state_at_reads_any_message_index() -> None:
    world = new_world()
    world.index = 2
    world.insert("notes", {"note_id": "n1", "text": "second"})
    world.index = 5
    world.update("notes", {"note_id": "n0"}, {"text": "edited"})
    world.index = 7
    world.delete("notes", {"note_id": "n1"})

    def texts(i: int) -> list[str]:
        return [r["text"] for r in world.state_at(i).rows("notes")]

    assert texts(-1) == ["first"]
    assert texts(1) == ["first"]
    assert texts(2) == ["first", "second"]
    assert texts(4) == ["first", "second"]
    assert texts(5) == ["edited", "second"]
    assert texts(7) == ["edited"]
    assert texts(100) == ["edited"]


def test_snapshots_share_untouched_tables() -> None:
    world = new_world()
    before = world.state()
    world.index = 0
    world.insert("tags", {"tag": "a"})
    after = world.state()
    assert before.rows("notes") is after.rows("notes")  # copy-on-write: no copy of notes
    assert before.rows("tags") == ()


def test_failed_transaction_leaves_world_exactly_as_before() -> None:
    world = new_world(session={"username": "ann"}, seed=3)
    world.rng("ids").random()
    digest, changes = world.state().digest(), list(world.changes)
    rng_state = world.rng("ids").getstate()
    with pytest.raises(RuntimeError), world.transaction():
        world.insert("notes", {"note_id": "n9", "text": "tmp"})
        world.set_session(username="bob")
        world.rng("ids").random()
        world.rng("fresh").random()
        raise RuntimeError("tool failed halfway")
    assert world.state().digest() == digest
    assert world.changes == changes
    assert world.rng("ids").getstate() == rng_state
    assert world.session["username"] == "ann"


def test_rng_is_seeded_per_world_and_name() -> None:
    a, b = new_world(seed=1), new_world(seed=1)
    assert a.rng("x").random() == b.rng("x").random()
    assert new_world(seed=2).rng("x").random() != new_world(seed=1).rng("x").random()


ops = st.lists(
    st.tuples(
        st.sampled_from(["insert", "update", "delete", "session"]),
        st.integers(0, 3),
        st.text(max_size=3),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(ops)
def test_replaying_recorded_changes_rebuilds_every_snapshot(operations: list) -> None:
    world = new_world()
    for step, (op, key, text) in enumerate(operations):
        world.index = step
        if op == "insert":
            world.insert("notes", {"note_id": f"k{key}", "text": text})
        elif op == "update":
            world.update("notes", {"note_id": f"k{key}"}, {"text": text})
        elif op == "delete":
            world.delete("notes", {"note_id": f"k{key}"})
        else:
            world.set_session(user=text)
    rebuilt = replay_changes(new_world(), world.changes)
    for index in range(-1, len(operations) + 1):
        assert rebuilt.state_at(index).digest() == world.state_at(index).digest()


def test_an_update_may_move_the_row_last() -> None:
    world = new_world()
    world.insert("notes", {"note_id": "n1", "text": "second"})
    world.update("notes", {"note_id": "n0"}, {"text": "first, edited"}, to_end=True)
    assert [r["note_id"] for r in world.rows("notes")] == ["n1", "n0"]
    assert world.changes[-1].op == "update" and world.changes[-1].after["text"] == "first, edited"
    world.update("notes", {"note_id": "n1"}, {"text": "in place"})
    assert [r["note_id"] for r in world.rows("notes")] == ["n1", "n0"]


def test_a_fork_is_independent_and_has_no_history() -> None:
    world = new_world(seed=3)
    world.rng("ids").random()
    world.insert("tags", {"tag": "a"})
    fork = world.fork()
    assert fork.state().digest() == world.state().digest() and not fork.changes
    assert fork.fingerprint() == world.fingerprint()
    assert fork.rng("ids").random() == world.rng("ids").random()  # same generator state
    fork.insert("tags", {"tag": "b"})
    fork.update("notes", {"note_id": "n0"}, {"text": "changed"})
    assert [r["tag"] for r in world.rows("tags")] == ["a"]
    assert world.rows("notes")[0]["text"] == "first"
    assert fork.fingerprint() != world.fingerprint()
