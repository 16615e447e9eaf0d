"""Rebuild a world's history from its recorded changes (for scoring stored trajectories)."""

from __future__ import annotations

from collections.abc import Iterable

from toolplay.messages import WorldChange
from toolplay.world._state import Row
from toolplay.world._world import World, WorldError


def replay_changes(world: World, changes: Iterable[WorldChange]) -> World:
    """Apply recorded `changes` to a freshly built `world`, at their message indices.

    Rows are identified by value: an update or delete acts on the first row equal to the
    change's `before`. Returns the same world, whose `state_at` then answers for any index.
    """
    for change in changes:
        world.index = change.index
        if change.op == "session":
            world.set_session(**(change.after or {}))
        elif change.op == "insert":
            world.insert(change.table, change.after or {})
        else:
            target = change.before or {}
            row = world.find_one(change.table, target)
            if row is None:
                raise WorldError(f"recorded {change.op} on {change.table!r}: row not found")

            def same(candidate: Row, target: Row = row) -> bool:
                return candidate is target

            if change.op == "update":
                world.update(change.table, same, change.after or {})
            else:
                world.delete(change.table, same)
    return world
