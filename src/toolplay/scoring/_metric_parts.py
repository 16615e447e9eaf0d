"""Each method's run metrics as ratios of per-scenario sums, for intervals and paired tests.

The aggregators (`_milestones`, `_tooltalk_summary`, `_autode`, `_dispatch`) compute a run's
metrics from scored records; this module says, per method, which two numbers each record
adds to a metric's numerator and denominator, so that `_uncertainty` can resample scenarios
and recompute the metric exactly as the aggregator would. On the full sample a ratio gives
back the aggregator's value (a test holds the two together).

Records the aggregator skips are skipped here too: unscored ones (infrastructure errors),
ToolTalk records without `counts`, slot records without `slot_f1`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from toolplay.scoring._milestones import PERFECT
from toolplay.scoring._result import ScenarioScore
from toolplay.scoring._uncertainty import Ratio

__all__ = [
    "CATEGORY_METRIC",
    "GENERIC_METRIC",
    "MetricPart",
    "METRIC_PARTS",
    "PER_TRIAL",
    "PRIMARY_METRIC",
    "category_metric",
    "metric_part",
    "metric_ratios",
    "primary_metric",
]

Parts = Callable[[ScenarioScore], tuple[float, float]]


@dataclass(frozen=True)
class MetricPart:
    """What one record adds to a metric: `parts(record) -> (numerator, denominator)`."""

    parts: Parts
    empty: float | None = None
    """The metric's value when nothing is in its denominator (None: undefined)."""


def _score(record: ScenarioScore) -> tuple[float, float]:
    return float(record.score or 0.0), 1.0


def _perfect(record: ScenarioScore) -> tuple[float, float]:
    return float((record.score or 0.0) >= PERFECT), 1.0


def _detail(key: str) -> Parts:
    return lambda record: (float(record.details[key]), 1.0)


def _counts(top: str, bottom: str) -> Parts:
    def parts(record: ScenarioScore) -> tuple[float, float]:
        counts = record.details["counts"]
        return float(counts[top]), float(counts[bottom])

    return parts


def _successes(record: ScenarioScore) -> tuple[float, float]:
    return float(record.details["counts"]["successes"]), 1.0


GENERIC_METRIC = "score"
"""The mean scenario score: the summary's `by_category` for methods without their own."""

_MEAN = {GENERIC_METRIC: MetricPart(_score), "perfect_rate": MetricPart(_perfect)}

METRIC_PARTS: dict[str, dict[str, MetricPart]] = {
    "state": _MEAN,
    "milestones": {
        "similarity": MetricPart(_score),
        "milestone_similarity": MetricPart(_detail("milestone_similarity")),
        "perfect_rate": MetricPart(_perfect),
        "turn_count": MetricPart(_detail("turn_count")),
    },
    "tooltalk": {
        "precision": MetricPart(_counts("matches", "predictions")),
        "recall": MetricPart(_counts("matches", "ground_truth")),
        "incorrect_action_rate": MetricPart(_counts("incorrect_actions", "actions"), 0.0),
        "success_rate": MetricPart(_successes),
        "soft_success_rate": MetricPart(_detail("soft_success")),
    },
    "slots": {
        "slot_precision": MetricPart(_detail("slot_precision")),
        "slot_recall": MetricPart(_detail("slot_recall")),
        "slot_f1": MetricPart(_detail("slot_f1")),
    },
}
"""Per method, the headline metrics of its aggregator (any other method: `state`'s)."""

PER_TRIAL = frozenset({"slots"})
"""Methods whose run metric is the mean over trials of per-trial averages (AutoDE)."""

PRIMARY_METRIC: dict[str, str] = {
    "state": GENERIC_METRIC,
    "milestones": "similarity",
    "tooltalk": "success_rate",
    "slots": "slot_f1",
}
"""The metric a run is ranked and a breakdown (augmentation, split) read by: the first of
the report's headline order."""

CATEGORY_METRIC: dict[str, str] = {"milestones": "similarity", "slots": "slot_f1"}
"""The metric of the summary's `by_category` rows (other methods: the mean score)."""

_REQUIRED: dict[str, str] = {"tooltalk": "counts", "slots": "slot_f1"}


def _kept(record: ScenarioScore) -> bool:
    needed = _REQUIRED.get(record.evaluation)
    return record.score is not None and (needed is None or needed in record.details)


def primary_metric(method: str) -> str:
    """The method's main metric (what a ranking or a breakdown compares)."""
    return PRIMARY_METRIC.get(method, GENERIC_METRIC)


def category_metric(method: str) -> str:
    """The metric of the method's `by_category` rows in the summary."""
    return CATEGORY_METRIC.get(method, GENERIC_METRIC)


def metric_part(method: str, metric: str) -> MetricPart:
    """How a record of `method` adds to `metric` (the generic mean score included).

    Raises:
        KeyError: The method has no such metric.
    """
    parts = {**_MEAN, **METRIC_PARTS.get(method, _MEAN)}
    return parts[metric]


def metric_ratios(
    records: Sequence[ScenarioScore],
    scenario_ids: Sequence[str],
    *,
    metrics: Mapping[str, MetricPart] | None = None,
    average_trials: bool = False,
) -> dict[str, Ratio]:
    """The ratios of a run's metrics over `scenario_ids` (rows in that order).

    Args:
        records: Scored records (any trials); records of other scenarios are ignored.
        scenario_ids: The scenarios, one row each.
        metrics: The metrics to build, pooled over trials as breakdowns are (default: the
            headline metrics of every method present, a later method's metric replacing an
            earlier one's of the same name, as the summary merges them; per trial for
            per-trial methods).
        average_trials: Each scenario's parts averaged over its kept trials, in one column:
            a scenario weighs the same whatever its number of trials (paired comparisons of
            runs with different trial counts).

    Returns:
        Metric name -> ratio; a metric with no kept record is left out.
    """
    row_of = {sid: i for i, sid in enumerate(scenario_ids)}
    kept = [r for r in records if r.scenario_id in row_of and _kept(r)]
    methods = sorted({r.evaluation for r in kept})
    wanted: dict[str, tuple[MetricPart, tuple[str, ...]]] = {}
    if metrics is not None:
        wanted = {name: (part, tuple(methods)) for name, part in metrics.items()}
    else:
        for method in methods:
            for name, part in METRIC_PARTS.get(method, _MEAN).items():
                wanted[name] = (part, (method,))
    trials = sorted({r.trial for r in kept})
    column_of = {t: i for i, t in enumerate(trials)}
    ratios: dict[str, Ratio] = {}
    for name, (part, owners) in wanted.items():
        mine = [r for r in kept if r.evaluation in owners]
        if not mine:
            continue
        per_trial = metrics is None and not average_trials and owners[0] in PER_TRIAL
        width = len(trials) if per_trial else 1
        num = np.zeros((len(scenario_ids), width))
        den = np.zeros((len(scenario_ids), width))
        seen = np.zeros(len(scenario_ids))
        for record in mine:
            top, bottom = part.parts(record)
            row, column = row_of[record.scenario_id], column_of[record.trial] if per_trial else 0
            num[row, column] += top
            den[row, column] += bottom
            seen[row] += 1
        if average_trials:
            num /= np.maximum(seen, 1)[:, None]
            den /= np.maximum(seen, 1)[:, None]
        ratios[name] = Ratio(num, den, per_column=per_trial, empty=part.empty)
    return ratios
