"""ToolSandbox's `milestones` scorer, whole: similarity with the minefield veto, its evidence
(the milestone mapping) and how the trajectory viewer shows it.

Its metrics are means over scenario trials, each a per-trial value over one
(`MILESTONE_PARTS`), which the run's intervals and `compare`'s paired tests resample.
"""

from __future__ import annotations

from collections.abc import Callable

from toolplay.methods.toolsandbox._evidence import MilestoneEvidence
from toolplay.methods.toolsandbox._scoring import PERFECT, aggregate_milestones, score_milestones
from toolplay.methods.toolsandbox._tripwires import minefield_probes
from toolplay.methods.toolsandbox._view import milestone_parts, show_milestones
from toolplay.scoring import (
    Metric,
    MetricPart,
    MetricParts,
    Scorer,
    evidence_part,
    perfect_part,
    score_part,
)


def _milestone(value: Callable[[MilestoneEvidence], float]) -> MetricPart:
    return MetricPart(evidence_part(MilestoneEvidence, lambda e: (value(e), 1.0)))


MILESTONE_PARTS = MetricParts(
    {
        "similarity": MetricPart(score_part),
        "milestone_similarity": _milestone(lambda e: e.milestone_similarity),
        "perfect_rate": MetricPart(perfect_part(PERFECT)),
        "turn_count": _milestone(lambda e: float(e.turn_count)),
    },
    primary="similarity",
    category="similarity",
)
"""Means over scenario trials (`aggregate_milestones`)."""


def milestones_scorer() -> Scorer:
    """ToolSandbox's scorer: milestones and minefields over a DAG."""
    return Scorer(
        "milestones",
        score_milestones,
        aggregate_milestones,
        (
            Metric(
                "similarity",
                "Milestone similarity with the minefield veto: the best DAG-respecting "
                "mapping's mean milestone similarity, 0 if any minefield matched.",
                method="ToolSandbox",
            ),
            Metric(
                "milestone_similarity",
                "The same before the minefield veto.",
                method="ToolSandbox",
            ),
            Metric("perfect_rate", "Share of scenario trials scoring 1."),
            Metric(
                "turn_count",
                "Messages between user, assistant and environment (no system messages, "
                "no user tool calls): efficiency, lower is better.",
                range="0 or more",
                method="ToolSandbox",
            ),
        ),
        "ToolSandbox: milestones and minefields over a DAG, matched to the trajectory.",
        parts=MILESTONE_PARTS,
        evidence=MilestoneEvidence,
        show_evidence=show_milestones,
        check_parts=milestone_parts,
        veto_probes=minefield_probes,
    )
