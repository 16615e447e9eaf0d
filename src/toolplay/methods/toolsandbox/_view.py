"""How a `milestones` score reads in the trajectory viewer: which message each milestone and
minefield was matched to, with what similarity, and the score before the minefield veto.
"""

from __future__ import annotations

from typing import Any

from toolplay.methods.toolsandbox._evidence import MilestoneEvidence, MilestoneMatch
from toolplay.scoring import CheckParts, EvidenceView, empty_view


def _event(match: MilestoneMatch) -> dict[str, Any]:
    return {
        "label": match.id,
        "message_index": match.index,
        "similarity": match.similarity,
        "constraints": " · ".join(f"{c.kind} {c.similarity:.2f}" for c in match.constraints),
    }


def show_milestones(evidence: MilestoneEvidence) -> EvidenceView:
    """The milestone and minefield mappings, and the similarity before the veto."""
    out = empty_view()
    out["milestones"] = [_event(m) for m in evidence.milestone_mapping]
    out["minefields"] = [
        {**_event(m), "fired": m.similarity > 0} for m in evidence.minefield_mapping
    ]
    out["before_veto"] = evidence.milestone_similarity
    return out


def milestone_parts(evidence: MilestoneEvidence) -> CheckParts:
    """The check part by part: each milestone's similarity where it was matched."""
    return CheckParts(graded={m.id: m.similarity for m in evidence.milestone_mapping})
