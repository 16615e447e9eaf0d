"""The parts of a scenario's check that an audit follows, as each scorer reads them.

Some methods score a scenario in parts a person can fix one by one, and their scorers say so
(`Scorer.check_parts` -> `CheckParts`): ToolSandbox's milestones (graded: each milestone's
similarity where it was matched) and AutoDE's slots (each gold slot correct, wrong or
missing); a plugin's scorer may do the same. A scorer that declares no parts gets the
scenario-level flags only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolplay.scoring import CheckParts, ScenarioScore, Scorer

__all__ = ["SlotOutcome", "milestone_similarities", "slot_outcome"]


def _parts(score: ScenarioScore | None, scorers: Mapping[str, Scorer]) -> CheckParts | None:
    scorer = scorers.get(score.evaluation) if score is not None else None
    return None if scorer is None or score is None else scorer.parts_of(score)


def milestone_similarities(
    score: ScenarioScore | None, scorers: Mapping[str, Scorer]
) -> dict[str, float] | None:
    """Graded part (milestone) id -> its similarity in this trial (None: no graded parts)."""
    parts = _parts(score, scorers)
    return None if parts is None or parts.graded is None else dict(parts.graded)


@dataclass(frozen=True)
class SlotOutcome:
    """One trial's slots against the gold."""

    gold: Mapping[str, Any]
    correct: frozenset[str]
    wrong: Mapping[str, Any]
    """Gold slot -> the value given instead (as recorded after cleaning)."""


def slot_outcome(score: ScenarioScore | None, scorers: Mapping[str, Scorer]) -> SlotOutcome | None:
    """The trial's gold slots and how each fared (None: the check has no slots)."""
    parts = _parts(score, scorers)
    if parts is None or parts.gold is None:
        return None
    return SlotOutcome(parts.gold, parts.correct, parts.wrong)
