"""A run's metrics as ratios of per-scenario sums, for intervals and paired tests.

Each scorer declares how its headline metrics decompose (`Scorer.parts`, see
`_decomposition`); this module adds up those parts per scenario (and per trial where the
method averages per trial), so that `_uncertainty` can resample scenarios and recompute each
metric exactly as the aggregator would. Records the aggregator skips are skipped too:
unscored ones (infrastructure errors) and those its `counts` filter refuses.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from toolplay.scoring._decomposition import MEAN_PARTS, MetricPart, MetricParts
from toolplay.scoring._evidence import ScenarioScore
from toolplay.scoring._scorer import Scorer

if TYPE_CHECKING:
    from toolplay.stats._bootstrap import Ratio

__all__ = ["group_parts", "metric_ratios", "parts_of"]


def parts_of(scorers: Mapping[str, Scorer], method: str) -> MetricParts:
    """The decomposition `method`'s scorer declares (the mean score when it declares none)."""
    scorer = scorers.get(method)
    return scorer.parts if scorer is not None and scorer.parts is not None else MEAN_PARTS


def group_parts(scorers: Mapping[str, Scorer], methods: Collection[str]) -> MetricParts:
    """The decomposition of a group of records: its one method's, or the mean score for a mix."""
    return parts_of(scorers, next(iter(methods))) if len(set(methods)) == 1 else MEAN_PARTS


def metric_ratios(
    records: Sequence[ScenarioScore],
    scenario_ids: Sequence[str],
    scorers: Mapping[str, Scorer],
    *,
    metrics: Mapping[str, MetricPart] | None = None,
    average_trials: bool = False,
) -> dict[str, Ratio]:
    """The ratios of a run's metrics over `scenario_ids` (rows in that order).

    Args:
        records: Scored records (any trials); records of other scenarios are ignored.
        scenario_ids: The scenarios, one row each.
        scorers: The catalog's scorers by name (what each method's records decompose into).
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
    import numpy as np  # noqa: PLC0415 (start-up time: numpy only where statistics are made)

    from toolplay.stats._bootstrap import Ratio  # noqa: PLC0415

    row_of = {sid: i for i, sid in enumerate(scenario_ids)}
    kept = [
        r
        for r in records
        if r.scenario_id in row_of
        and r.score is not None
        and parts_of(scorers, r.evaluation).counts(r)
    ]
    methods = sorted({r.evaluation for r in kept})
    wanted: dict[str, tuple[MetricPart, tuple[str, ...], bool]] = {}
    if metrics is not None:
        wanted = {name: (part, tuple(methods), False) for name, part in metrics.items()}
    else:
        for method in methods:
            declared = parts_of(scorers, method)
            for name, part in declared.metrics.items():
                wanted[name] = (part, (method,), declared.per_trial and not average_trials)
    trials = sorted({r.trial for r in kept})
    column_of = {t: i for i, t in enumerate(trials)}
    ratios: dict[str, Ratio] = {}
    for name, (part, owners, per_trial) in wanted.items():
        mine = [r for r in kept if r.evaluation in owners]
        if not mine:
            continue
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
