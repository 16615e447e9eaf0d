"""The `state` scorer: does the conversation leave the world as the reference solution does?

The reference calls are replayed on a fresh world; every table either run changed is compared
as a multiset of rows, ignoring key columns (generated ids may differ when the assistant takes
another valid path). Score = share of those tables that end equal. Simple, strict and
model-free; scenarios that need partial credit or ordering use milestones instead.
"""

from __future__ import annotations

import json
from collections import Counter

from toolplay.messages import ToolCall, Trajectory
from toolplay.scenarios import Scenario, build_world, scenario_registry
from toolplay.scoring._result import ScenarioScore
from toolplay.world import World, WorldState, replay_changes


def reference_world(scenario: Scenario) -> World:
    """A fresh world after replaying every reference call in order."""
    world = build_world(scenario)
    registry = scenario_registry(scenario)
    for t, turn in enumerate(scenario.reference):
        for c, call in enumerate(turn.calls):
            world.index += 1
            registry.execute(world, ToolCall.from_args(f"ref_{t}_{c}", call.name, call.arguments))
    return world


def final_world(scenario: Scenario, trajectory: Trajectory) -> World:
    """The trajectory's world rebuilt from its recorded changes."""
    return replay_changes(build_world(scenario), trajectory.changes)


def score_state(scenario: Scenario, trajectory: Trajectory) -> ScenarioScore:
    """Score by final-state equality with the reference (see module docstring)."""
    expected_world = reference_world(scenario)
    actual_world = final_world(scenario, trajectory)
    touched = sorted(
        {c.table for c in expected_world.changes} | {c.table for c in trajectory.changes}
    )
    expected, actual = expected_world.state(), actual_world.state()
    keys = {name: schema.key for name, schema in expected_world.schemas.items()}
    differing = [t for t in touched if _rows(expected, t, keys) != _rows(actual, t, keys)]
    score = 1.0 if not touched else 1 - len(differing) / len(touched)
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trajectory.trial,
        evaluation="state",
        score=score,
        details={"tables": touched, "differing": differing},
    )


def _rows(state: WorldState, table: str, keys: dict[str, str | None]) -> Counter[str]:
    if table == "session":
        return Counter([json.dumps(dict(state.session), sort_keys=True, default=str)])
    key = keys.get(table)
    return Counter(
        json.dumps({k: v for k, v in row.items() if k != key}, sort_keys=True, default=str)
        for row in state.rows(table)
    )
