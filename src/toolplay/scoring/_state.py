"""The `state` scorer: does the conversation leave the world as the reference solution does?

The reference calls are replayed on a fresh world; every table either run changed is compared
as a multiset of rows, ignoring key columns (generated ids may differ when the assistant takes
another valid path). Score = share of those tables that end equal. Simple, strict and
model-free; scenarios that need partial credit or ordering use milestones instead.
"""

from __future__ import annotations

import json
from collections import Counter

from toolplay.messages import Trajectory
from toolplay.scenarios import ScenarioSetup
from toolplay.scoring._evidence import ScenarioScore, StateEvidence
from toolplay.scoring._result import ScoringContext
from toolplay.scoring._views import EvidenceView, empty_view
from toolplay.world import World, WorldState, replay_changes


def final_world(setup: ScenarioSetup, trajectory: Trajectory) -> World:
    """The trajectory's world rebuilt from its recorded changes."""
    return replay_changes(setup.new_world(), trajectory.changes)


def score_state(
    setup: ScenarioSetup, trajectory: Trajectory, context: ScoringContext | None = None
) -> ScenarioScore:
    """Score by final-state equality with the reference (see module docstring)."""
    scenario = setup.scenario
    expected_world = setup.replay_reference()
    actual_world = final_world(setup, trajectory)
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
        evidence=StateEvidence(tables=touched, differing=differing),
    )


def _rows(state: WorldState, table: str, keys: dict[str, str | None]) -> Counter[str]:
    if table == "session":
        return Counter([json.dumps(dict(state.session), sort_keys=True, default=str)])
    key = keys.get(table)
    return Counter(
        json.dumps({k: v for k, v in row.items() if k != key}, sort_keys=True, default=str)
        for row in state.rows(table)
    )


def show_state(evidence: StateEvidence) -> EvidenceView:
    """What the trajectory viewer shows: the tables that ended unlike the reference's."""
    out = empty_view()
    if evidence.differing:
        out["notes"].append("tables unlike the reference's: " + ", ".join(evidence.differing))
    elif evidence.tables:
        out["notes"].append("every changed table ends as the reference leaves it")
    return out
