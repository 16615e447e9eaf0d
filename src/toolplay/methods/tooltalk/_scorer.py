"""ToolTalk's `tooltalk` scorer, whole: call matching, micro-averaged metrics per split, its
success rule (recall 1 and no incorrect action, from the evidence) and its views.

Micro averages are sums of counts over conversations divided, so each metric is a ratio of
per-conversation counts (`TOOLTALK_PARTS`), and its splits are a breakdown of its own with
intervals like the generic ones.
"""

from __future__ import annotations

from collections.abc import Callable

from toolplay.methods.tooltalk._evidence import ToolTalkEvidence
from toolplay.methods.tooltalk._scoring import reproduces_reference, score_tooltalk
from toolplay.methods.tooltalk._summary import DEFAULT_SPLIT, ToolTalkSection, aggregate_tooltalk
from toolplay.methods.tooltalk._view import show_section, show_tooltalk
from toolplay.scoring import (
    Metric,
    MetricPart,
    MetricParts,
    Parts,
    ScenarioScore,
    Scorer,
    evidence_as,
    evidence_part,
    with_evidence,
)

_MICRO = "micro average: summed over conversations (all trials), then divided"


def _tooltalk(value: Callable[[ToolTalkEvidence], tuple[float, float]]) -> Parts:
    return evidence_part(ToolTalkEvidence, value)


TOOLTALK_PARTS = MetricParts(
    {
        "precision": MetricPart(_tooltalk(lambda e: (e.counts.matches, e.counts.predictions))),
        "recall": MetricPart(_tooltalk(lambda e: (e.counts.matches, e.counts.ground_truth))),
        "incorrect_action_rate": MetricPart(
            _tooltalk(lambda e: (e.counts.incorrect_actions, e.counts.actions)), empty=0.0
        ),
        "success_rate": MetricPart(_tooltalk(lambda e: (e.counts.successes, 1.0))),
        "soft_success_rate": MetricPart(_tooltalk(lambda e: (e.soft_success, 1.0))),
    },
    primary="success_rate",
    breakdowns={"splits": lambda scenario: scenario.split or DEFAULT_SPLIT},
    counts=with_evidence(ToolTalkEvidence),
)
"""Micro averages: counts summed over conversations, then divided (`aggregate_tooltalk`)."""


def succeeded(score: ScenarioScore) -> bool:
    """ToolTalk's success: recall 1 and no incorrect action (its evidence says which)."""
    evidence = evidence_as(score.evidence, ToolTalkEvidence)
    return evidence.success if evidence is not None else False


def tooltalk_scorer() -> Scorer:
    """ToolTalk's scorer: conversation-wide greedy call matching."""
    return Scorer(
        "tooltalk",
        score_tooltalk,
        aggregate_tooltalk,
        (
            Metric("precision", "Matched predictions / predictions.", "0 to 1", _MICRO, "ToolTalk"),
            Metric(
                "recall",
                "Matched ground-truth calls / ground-truth calls.",
                "0 to 1",
                _MICRO,
                "ToolTalk",
            ),
            Metric(
                "incorrect_action_rate",
                "Action calls that matched nothing and succeeded / predicted action calls.",
                "0 to 1, lower is better",
                _MICRO,
                "ToolTalk",
            ),
            Metric(
                "success_rate",
                "Conversations with recall 1 and no incorrect action / conversations.",
                "0 to 1",
                _MICRO,
                "ToolTalk",
            ),
            Metric(
                "soft_success_rate",
                "Mean over conversations of recall x (1 - incorrect-action rate).",
                "0 to 1",
                "mean over conversations",
                "ToolTalk",
            ),
            Metric(
                "error_types.TYPE",
                "Assistant turns of failed conversations with error TYPE (premature_call, "
                "faulty_planning, incorrect_invocation), in the summary's "
                "`sections.tooltalk.error_types`.",
                "count",
                "count, per turn as ToolTalk counts them",
                "ToolTalk",
            ),
        ),
        description="ToolTalk: conversation-wide greedy call matching with per-tool rules.",
        reference_check=reproduces_reference,
        needs_similarity=True,
        parts=TOOLTALK_PARTS,
        evidence=ToolTalkEvidence,
        success=succeeded,
        show_evidence=show_tooltalk,
        section=ToolTalkSection,
        show_section=show_section,
    )
