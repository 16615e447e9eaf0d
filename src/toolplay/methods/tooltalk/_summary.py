"""ToolTalk's run metrics: micro-averaged per split and over all splits.

Counts add up over conversations (and trials); precision = matches / predictions, recall =
matches / ground-truth calls, incorrect-action rate = incorrect actions / predicted action
calls (failed ones included, as in the reference), success rate = successful conversations /
conversations, soft success rate = mean over conversations of recall x (1 - incorrect-action
rate). A ratio whose denominator is zero is None ("not defined"), except the incorrect-action
rate, which is 0 when no action was predicted: no action, nothing incorrect.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, Field

from toolplay.methods.tooltalk._evidence import ToolTalkCounts, ToolTalkEvidence
from toolplay.scoring import MethodSummary, MetricValues, Scored, evidence_as

ERROR_TYPES = ("premature_call", "faulty_planning", "incorrect_invocation")
DEFAULT_SPLIT = "default"


class ToolTalkTotals(ToolTalkCounts):
    """ToolTalk's counts summed over conversations."""

    conversations: int = 0


class ToolTalkGroup(BaseModel):
    """ToolTalk's metrics over a group of conversations (a split, or all of them)."""

    counts: ToolTalkTotals
    metrics: MetricValues
    error_types: dict[str, int]


class ToolTalkSection(BaseModel):
    """ToolTalk's section of a run summary: counts and error types over all conversations,
    and each split's counts, metrics and error types.
    """

    counts: ToolTalkTotals | None = None
    error_types: dict[str, int] = Field(default_factory=dict)
    splits: dict[str, ToolTalkGroup] = Field(default_factory=dict)


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def _group(items: Sequence[ToolTalkEvidence]) -> ToolTalkGroup:
    totals = ToolTalkTotals(conversations=len(items))
    errors: Counter[str] = Counter({key: 0 for key in ERROR_TYPES})
    soft = 0.0
    for item in items:
        for key, value in item.counts.model_dump().items():
            setattr(totals, key, getattr(totals, key) + value)
        soft += item.soft_success
        for entry in item.error_types:
            errors[entry.error_type] += entry.count
    return ToolTalkGroup(
        counts=totals,
        metrics=MetricValues.of(
            {
                "precision": _ratio(totals.matches, totals.predictions),
                "recall": _ratio(totals.matches, totals.ground_truth),
                "incorrect_action_rate": _ratio(totals.incorrect_actions, totals.actions) or 0.0,
                "success_rate": _ratio(totals.successes, len(items)),
                "soft_success_rate": _ratio(soft, len(items)),
            }
        ),
        error_types=dict(errors),
    )


def aggregate_tooltalk(records: Sequence[Scored]) -> MethodSummary:
    """Per-split and overall ToolTalk metrics of a run's scored conversations."""
    by_split: dict[str, list[ToolTalkEvidence]] = defaultdict(list)
    for record in records:
        evidence = evidence_as(record.score.evidence, ToolTalkEvidence)
        if record.score.score is None or evidence is None:
            continue
        by_split[record.scenario.split or DEFAULT_SPLIT].append(evidence)
    overall = _group([item for items in by_split.values() for item in items])
    return MethodSummary(
        metrics=overall.metrics,
        section=ToolTalkSection(
            counts=overall.counts,
            error_types=overall.error_types,
            splits={split: _group(items) for split, items in sorted(by_split.items())},
        ),
    )
