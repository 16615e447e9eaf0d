"""How a scorer's headline metrics decompose into per-scenario parts, declared with the scorer.

Intervals and paired tests resample scenarios and recompute each metric exactly as the
scorer's aggregator would. That works when every metric is a ratio of sums over records:
`Σ numerator / Σ denominator`, each record adding its two numbers. A `Scorer` declares this
in `parts` (a `MetricParts`), beside its aggregator and its metrics, so a plugin's scorer
gets intervals the same way the built-ins do; a scorer without it is read as the mean of its
scenario scores (`MEAN_PARTS`, what `mean_score` reports).

A part reads the record's typed evidence. A record whose evidence is of another kind adds
`(0, 0)`: it is outside that metric's denominator, as the aggregators leave it out of the
averages they take over evidence (`evidence_part`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from toolplay.scenarios import Scenario
from toolplay.scoring._evidence import Evidence, ScenarioScore, evidence_as

__all__ = [
    "GENERIC_METRIC",
    "MEAN_PARTS",
    "MetricPart",
    "MetricParts",
    "Parts",
    "evidence_part",
    "perfect_part",
    "score_part",
    "scored",
    "with_evidence",
]

Parts = Callable[[ScenarioScore], tuple[float, float]]
"""What one record adds to a metric: (numerator, denominator)."""

E = TypeVar("E", bound=Evidence)

GENERIC_METRIC = "score"
"""The mean scenario score (the summary's `by_category` for methods without their own)."""


@dataclass(frozen=True)
class MetricPart:
    """One metric as a ratio of sums: `parts(record) -> (numerator, denominator)`."""

    parts: Parts
    empty: float | None = None
    """The metric's value when nothing is in its denominator (None: undefined)."""


def scored(record: ScenarioScore) -> bool:
    """The default record filter: every scored record counts (infrastructure errors do not)."""
    return record.score is not None


def with_evidence(kind: type[Evidence]) -> Callable[[ScenarioScore], bool]:
    """A record filter for aggregators that skip records without their own evidence."""

    def counts(record: ScenarioScore) -> bool:
        return record.score is not None and evidence_as(record.evidence, kind) is not None

    return counts


def score_part(record: ScenarioScore) -> tuple[float, float]:
    """The scenario score over one record: their ratio is the mean score."""
    return float(record.score or 0.0), 1.0


def perfect_part(threshold: float = 1.0) -> Parts:
    """One if the score reaches `threshold`, over one record: the share of perfect scores."""

    def parts(record: ScenarioScore) -> tuple[float, float]:
        return float((record.score or 0.0) >= threshold), 1.0

    return parts


def evidence_part(kind: type[E], value: Callable[[E], tuple[float, float]]) -> Parts:
    """`value(evidence)` for a record whose evidence is a `kind`, else `(0, 0)` (not counted)."""

    def parts(record: ScenarioScore) -> tuple[float, float]:
        evidence = evidence_as(record.evidence, kind)
        return value(evidence) if evidence is not None else (0.0, 0.0)

    return parts


@dataclass(frozen=True)
class MetricParts:
    """A scorer's headline metrics as ratios of per-record sums (see the module docstring).

    On the full sample each ratio gives back the aggregator's value; a test holds the two
    together for the built-ins.
    """

    metrics: Mapping[str, MetricPart]
    """Headline metric name -> its part (counts such as `dialogues` have none)."""
    primary: str = GENERIC_METRIC
    """The metric runs are ranked by and the `by_augmentation` (and the method's own
    breakdowns') rows are read by."""
    category: str = GENERIC_METRIC
    """The metric of the summary's `by_category` rows (the generic mean score unless the
    aggregator writes its own rows)."""
    per_trial: bool = False
    """The aggregator averages per trial, then over trials (one column per trial)."""
    breakdowns: Mapping[str, Callable[[Scenario], str]] = field(default_factory=dict)
    """The method's own breakdowns (ToolTalk's `splits`): name -> a scenario's group; their
    rows get intervals of the `primary` metric, as the generic breakdowns do."""
    counts: Callable[[ScenarioScore], bool] = field(default=scored)
    """Which records the aggregator counts at all (default: every scored one)."""

    def part(self, metric: str) -> MetricPart:
        """How a record adds to `metric` (the generic mean score included).

        Raises:
            KeyError: The scorer declares no such metric.
        """
        return {**MEAN_PARTS.metrics, **self.metrics}[metric]


MEAN_PARTS = MetricParts(
    {GENERIC_METRIC: MetricPart(score_part), "perfect_rate": MetricPart(perfect_part())}
)
"""The mean scenario score and the share of perfect ones (`mean_score`'s metrics): the
parts of any scorer that declares none."""
