"""What the trajectory viewer shows of a score's evidence: the scorer's own view of it.

Each scorer declares how its evidence reads (`Scorer.show_evidence` -> `EvidenceView`: the
milestone mapping, ToolTalk's call matching, AutoDE's slots, a plugin's own tables and notes);
this module only looks the scorer up. A score whose scorer the catalog does not hold (a plugin
that no longer loads) shows its validation problems only; the viewer shows every record's raw
evidence beside it either way.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolplay.scoring import EvidenceView, ScenarioScore, Scorer, empty_view

__all__ = ["extract_evidence"]


def extract_evidence(score: ScenarioScore | None, scorers: Mapping[str, Scorer]) -> EvidenceView:
    """The viewer's evidence lists for one score (empty lists when there is no evidence)."""
    view = empty_view()
    if score is None or score.evidence is None:
        return view
    scorer = scorers.get(score.evaluation)
    if scorer is not None:
        return scorer.evidence_view(score.evidence)
    view["notes"] += [f"validation: {p}" for p in score.evidence.validation_problems]
    return view
