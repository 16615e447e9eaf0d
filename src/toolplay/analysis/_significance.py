"""Is the difference real? Paired differences between compared runs, and a cautious ranking.

Two runs: on the scenarios both scored, every headline metric the two have in common and the
main metric of every category, each as run A minus run B with its paired-bootstrap interval
and paired permutation p-value (`scoring._paired`). Holm's correction is applied within each
table (the metrics; the categories), since a table of many tests invites reading the smallest
p-value as a finding. Scenarios only one run scored are listed by id, never silently dropped.

Three or more runs: the main metric only, on the scenarios every run scored (so the runs'
estimates are comparable), every pair tested, Holm over all pairs, and a ranking in which a
run is placed above another only when their corrected difference is significant.

A scenario's parts are averaged over its scored trials, so runs with different numbers of
trials compare scenario for scenario. How a method's metrics decompose into parts is what its
scorer declares (`Scorer.parts`), looked up in a catalog holding the runs' plugins.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from toolplay.analysis._metrics import HEADLINE_ORDER
from toolplay.analysis._run_data import RunData
from toolplay.scoring import ScenarioScore, Scorer, group_parts, metric_ratios
from toolplay.stats import (
    PairedDifference,
    RankedRun,
    UncertaintySettings,
    holm,
    paired_difference,
    ratio_value,
    significance_ranking,
)

__all__ = ["PairedRuns", "RunRanking", "Significance", "significance"]


@dataclass(frozen=True)
class PairedRuns:
    """Run A against run B on their shared scenarios."""

    left: str
    right: str
    shared: int
    only_left: tuple[str, ...]
    only_right: tuple[str, ...]
    metrics: tuple[PairedDifference, ...]
    categories: tuple[tuple[str, PairedDifference], ...]
    category_metric: str | None


@dataclass(frozen=True)
class RunRanking:
    """Three or more runs: pairwise differences in one metric, and the ranking they support."""

    metric: str
    scenarios: int
    left_out: tuple[str, ...]
    """Scenarios some run did not score (not part of any test here)."""
    pairs: tuple[tuple[str, str, PairedDifference], ...]
    ranking: tuple[RankedRun, ...]


@dataclass(frozen=True)
class Significance:
    """Everything `compare` says about whether differences are real."""

    settings: UncertaintySettings
    pair: PairedRuns | None
    ranking: RunRanking | None


def _records(run: RunData) -> list[ScenarioScore]:
    """The run's scored records (with their typed evidence)."""
    return [e.score for e in run.entries if e.score is not None and e.score.score is not None]


def _evaluations(*runs: Sequence[ScenarioScore]) -> set[str]:
    return {r.evaluation for records in runs for r in records}


def _with_holm(differences: Sequence[PairedDifference]) -> list[PairedDifference]:
    adjusted = holm([d.p_value for d in differences])
    return [d.model_copy(update={"p_holm": p}) for d, p in zip(differences, adjusted, strict=True)]


def _pair(
    left: tuple[str, RunData],
    right: tuple[str, RunData],
    settings: UncertaintySettings,
    scorers: Mapping[str, Scorer],
) -> PairedRuns:
    a, b = _records(left[1]), _records(right[1])
    ids_a, ids_b = {r.scenario_id for r in a}, {r.scenario_id for r in b}
    shared = sorted(ids_a & ids_b)
    ratios_a = metric_ratios(a, shared, scorers, average_trials=True)
    ratios_b = metric_ratios(b, shared, scorers, average_trials=True)
    names = [name for name in ratios_a if name in ratios_b]
    names.sort(key=lambda n: (HEADLINE_ORDER.index(n) if n in HEADLINE_ORDER else 99, n))
    metrics = _with_holm(
        [
            paired_difference(name, ratios_a[name], ratios_b[name], settings, f"paired/{name}")
            for name in names
        ]
    )
    parts = group_parts(scorers, _evaluations(a, b))
    metric = parts.category
    part = {metric: parts.part(metric)}
    categories: dict[str, set[str]] = {}
    for entry in [*left[1].entries, *right[1].entries]:
        if entry.id in shared:
            for category in entry.info.categories:
                categories.setdefault(category, set()).add(entry.id)
    rows: list[tuple[str, PairedDifference]] = []
    for category, members in sorted(categories.items()):
        ids = sorted(members)
        ra = metric_ratios(a, ids, scorers, metrics=part, average_trials=True)
        rb = metric_ratios(b, ids, scorers, metrics=part, average_trials=True)
        if metric in ra and metric in rb:
            key = f"paired/by_category/{category}"
            rows.append(
                (category, paired_difference(metric, ra[metric], rb[metric], settings, key))
            )
    adjusted = _with_holm([d for _, d in rows])
    return PairedRuns(
        left=left[0],
        right=right[0],
        shared=len(shared),
        only_left=tuple(sorted(ids_a - ids_b)),
        only_right=tuple(sorted(ids_b - ids_a)),
        metrics=tuple(metrics),
        categories=tuple((c, d) for (c, _), d in zip(rows, adjusted, strict=True)),
        category_metric=metric if rows else None,
    )


def _ranking(
    runs: Sequence[tuple[str, RunData]],
    settings: UncertaintySettings,
    scorers: Mapping[str, Scorer],
) -> RunRanking:
    records = [_records(run) for _, run in runs]
    parts = group_parts(scorers, _evaluations(*records))
    metric = parts.primary
    part = {metric: parts.part(metric)}
    scored = [{r.scenario_id for r in rs} for rs in records]
    common = sorted(set.intersection(*scored))
    left_out = tuple(sorted(set.union(*scored) - set(common)))
    ratios = [
        metric_ratios(rs, common, scorers, metrics=part, average_trials=True) for rs in records
    ]
    tested: list[tuple[str, str, PairedDifference]] = []
    for i, j in itertools.combinations(range(len(runs)), 2):
        if metric in ratios[i] and metric in ratios[j]:
            difference = paired_difference(
                metric, ratios[i][metric], ratios[j][metric], settings, f"paired/{metric}"
            )
            tested.append((runs[i][0], runs[j][0], difference))
    adjusted = _with_holm([d for _, _, d in tested])
    pairs = tuple((a, b, d) for (a, b, _), d in zip(tested, adjusted, strict=True))
    estimates = {
        label: ratio_value(own[metric]) if metric in own else None
        for (label, _), own in zip(runs, ratios, strict=True)
    }
    ranking = significance_ranking(
        estimates,
        [(a, b, d.difference, d.p_holm) for a, b, d in pairs],
        alpha=1.0 - settings.level,
    )
    return RunRanking(
        metric=metric,
        scenarios=len(common),
        left_out=left_out,
        pairs=pairs,
        ranking=tuple(ranking),
    )


def significance(
    labels: Sequence[str],
    runs: Sequence[RunData],
    settings: UncertaintySettings,
    scorers: Mapping[str, Scorer],
) -> Significance:
    """Paired differences for two runs; pairwise differences and a ranking for more.

    Args:
        labels: A name per run (as the comparison shows them).
        runs: The loaded runs, in the order given.
        settings: Level, resamples, seed and interval method.
        scorers: The catalog's scorers by name (how each method's metrics decompose).
    """
    named = list(zip(labels, runs, strict=True))
    pair = _pair(named[0], named[1], settings, scorers) if len(named) == 2 else None
    ranking = _ranking(named, settings, scorers) if len(named) >= 3 else None
    return Significance(settings=settings, pair=pair, ranking=ranking)
