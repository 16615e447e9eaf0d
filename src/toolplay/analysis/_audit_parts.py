"""The parts of a scenario's check that an audit follows, read from typed evidence.

Two methods score a scenario in parts a person can fix one by one: ToolSandbox's milestones
(`MilestoneEvidence`: each milestone's similarity where it was matched) and AutoDE's slots
(`SlotEvidence`: each gold slot correct, wrong or missing). This module is the one place the
audit knows evidence kinds; any other evidence has no parts and gets the scenario-level flags
only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolplay.scoring import MilestoneEvidence, ScenarioScore, SlotEvidence

__all__ = ["SlotOutcome", "milestone_similarities", "slot_outcome"]


def milestone_similarities(score: ScenarioScore | None) -> dict[str, float] | None:
    """Milestone id -> its similarity in this trial (None: not a milestone score)."""
    if score is None or not isinstance(score.evidence, MilestoneEvidence):
        return None
    return {m.id: m.similarity for m in score.evidence.milestone_mapping}


@dataclass(frozen=True)
class SlotOutcome:
    """One trial's slots against the gold."""

    gold: Mapping[str, Any]
    correct: frozenset[str]
    wrong: Mapping[str, Any]
    """Gold slot -> the value given instead (as recorded after cleaning)."""


def slot_outcome(score: ScenarioScore | None) -> SlotOutcome | None:
    """The trial's gold slots and how each fared (None: not a slots score)."""
    if score is None or not isinstance(score.evidence, SlotEvidence):
        return None
    evidence = score.evidence
    gold = dict(evidence.label.arguments) if isinstance(evidence.label.arguments, dict) else {}
    predicted = evidence.predicted.slots if evidence.predicted is not None else None
    wrong = {
        slot: (predicted or {}).get(slot)
        for slot in evidence.wrong
        if slot in gold and slot not in evidence.correct
    }
    return SlotOutcome(gold, frozenset(s for s in evidence.correct if s in gold), wrong)
