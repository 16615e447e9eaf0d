"""World state: tables, frozen clock, session, history and snapshots."""

from toolplay.world._replay import replay_changes
from toolplay.world._state import Row, TableSchema, Where, WorldState, freeze_row, matches
from toolplay.world._world import World, WorldError

__all__ = [
    "Row",
    "TableSchema",
    "Where",
    "World",
    "WorldError",
    "WorldState",
    "freeze_row",
    "matches",
    "replay_changes",
]
