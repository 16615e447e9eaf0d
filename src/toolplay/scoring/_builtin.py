"""The built-in scoring methods with their metrics, as the catalog registers them.

Each also declares how its headline metrics decompose into per-scenario parts
(`_decomposition`), which the run summary's confidence intervals and `compare`'s paired tests
resample.
"""

from __future__ import annotations

from collections.abc import Callable

from toolplay.scoring._autode import aggregate_slots, score_slots
from toolplay.scoring._decomposition import (
    MEAN_PARTS,
    MetricPart,
    MetricParts,
    Parts,
    evidence_part,
    perfect_part,
    score_part,
    with_evidence,
)
from toolplay.scoring._evidence import MilestoneEvidence, SlotEvidence, ToolTalkEvidence
from toolplay.scoring._milestones import PERFECT, aggregate_milestones, score_milestones
from toolplay.scoring._scorer import Metric, Scorer, mean_score
from toolplay.scoring._state import score_state
from toolplay.scoring._tooltalk import reproduces_reference, score_tooltalk
from toolplay.scoring._tooltalk_summary import aggregate_tooltalk

_MICRO = "micro average: summed over conversations (all trials), then divided"
_MACRO = (
    "macro average over dialogues per trial, then the mean over trials (± the sample std "
    "over trials in over_trials)"
)


def _milestone(value: Callable[[MilestoneEvidence], float]) -> MetricPart:
    return MetricPart(evidence_part(MilestoneEvidence, lambda e: (value(e), 1.0)))


def _tooltalk(value: Callable[[ToolTalkEvidence], tuple[float, float]]) -> Parts:
    return evidence_part(ToolTalkEvidence, value)


def _slot(value: Callable[[SlotEvidence], float]) -> MetricPart:
    return MetricPart(evidence_part(SlotEvidence, lambda e: (value(e), 1.0)))


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
    splits=True,
    counts=with_evidence(ToolTalkEvidence),
)
"""Micro averages: counts summed over conversations, then divided (`aggregate_tooltalk`)."""

SLOT_PARTS = MetricParts(
    {
        "slot_precision": _slot(lambda e: e.slot_precision),
        "slot_recall": _slot(lambda e: e.slot_recall),
        "slot_f1": _slot(lambda e: e.slot_f1),
    },
    primary="slot_f1",
    category="slot_f1",
    per_trial=True,
    counts=with_evidence(SlotEvidence),
)
"""Macro averages over dialogues, per trial then over trials (`aggregate_slots`)."""


def builtin_scorers() -> list[Scorer]:
    """The built-in scoring methods."""
    return [
        Scorer(
            "state",
            score_state,
            mean_score,
            (
                Metric("score", "Share of changed tables that end as the reference leaves them."),
                Metric("perfect_rate", "Share of scenario trials scoring 1."),
            ),
            "Final world state compared with the reference solution's, table by table.",
            parts=MEAN_PARTS,
        ),
        Scorer(
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
        ),
        Scorer(
            "tooltalk",
            score_tooltalk,
            aggregate_tooltalk,
            (
                Metric(
                    "precision", "Matched predictions / predictions.", "0 to 1", _MICRO, "ToolTalk"
                ),
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
                    "faulty_planning, incorrect_invocation), in the summary's `error_types`.",
                    "count",
                    "count, per turn as ToolTalk counts them",
                    "ToolTalk",
                ),
            ),
            "ToolTalk: conversation-wide greedy call matching with per-tool rules.",
            reference_check=reproduces_reference,
            needs_similarity=True,
            parts=TOOLTALK_PARTS,
        ),
        Scorer(
            "slots",
            score_slots,
            aggregate_slots,
            (
                Metric(
                    "slot_precision",
                    "Correct predicted slots / predicted slots.",
                    "0 to 1",
                    _MACRO,
                    "AutoDE",
                ),
                Metric(
                    "slot_recall",
                    "Correct predicted slots / label slots.",
                    "0 to 1",
                    _MACRO,
                    "AutoDE",
                ),
                Metric(
                    "slot_f1",
                    "Harmonic mean of slot precision and recall.",
                    "0 to 1",
                    _MACRO,
                    "AutoDE",
                ),
                Metric("dialogues", "Scored dialogue trials.", "count", "count", "AutoDE"),
                Metric(
                    "trials",
                    "Trials the averages are taken over.",
                    "count",
                    "count",
                    "AutoDE",
                ),
                Metric(
                    "failures.REASON",
                    "Dialogue trials that failed for REASON: never_called, round_limit, "
                    "parse_failure, assistant_error, wrong_function.",
                    "count",
                    "count",
                    "AutoDE",
                ),
                Metric(
                    "failure_reasons.TEXT",
                    "Failed dialogue trials per reason in the reference's own wording.",
                    "count",
                    "count",
                    "AutoDE",
                ),
                Metric(
                    "over_trials.METRIC",
                    "METRIC's mean ± sample std over trials (the spread AutoDE reports).",
                    "0 to 1",
                    "per trial: macro average over dialogues; then mean and std over trials",
                    "AutoDE",
                ),
            ),
            "AutoDE: slot precision/recall/F1 of the first call to the label's function, by the "
            "reference's rules (cleaning, exact values; slot_matching=lenient to forgive).",
            parts=SLOT_PARTS,
        ),
    ]
