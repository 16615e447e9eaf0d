"""The summary's `uncertainty` section: intervals on every headline figure, and trial power.

Built from the same scored records as the rest of the summary (infrastructure errors left
out), with the pure statistics of `toolplay.scoring`: a bootstrap over scenarios for the
headline `metrics`, pass^k (each k, successes by each scorer's rule) and the main metric of
each breakdown row (`by_category`, `by_augmentation`, `by_domain`, and the breakdowns a method
declares, e.g. ToolTalk's `splits`); and, when
scenarios have several scored trials, the spread over trials and the smallest detectable
difference (`trials`). Which metrics there are, how each decomposes into per-scenario parts
and which is a breakdown's main one, each scorer declares (`Scorer.parts`). Each group draws
its own seeded resamples (keyed by its name), so adding a category does not move another's
interval, and the same records and settings always give the same bytes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from math import comb

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from toolplay.scenarios import Scenario, augmentation_of
from toolplay.scoring import (
    MetricParts,
    Scored,
    Scorer,
    group_parts,
    metric_ratios,
    parts_of,
    succeeded,
)
from toolplay.stats import (
    ConfidenceInterval,
    Ratio,
    TrialPower,
    UncertaintySettings,
    bootstrap_intervals,
    trial_power,
)

__all__ = ["RunUncertainty", "run_uncertainty"]

_PASS = "pass_hat_k/"


class RunUncertainty(BaseModel):
    """The `uncertainty` section of `summary.json`."""

    model_config = ConfigDict(extra="forbid")

    settings: UncertaintySettings
    unit: str = Field(default="scenario", description="What a resample draws (with its trials).")
    metrics: dict[str, ConfidenceInterval] = Field(description="Per headline metric.")
    pass_hat_k: dict[str, ConfidenceInterval] = Field(description="Per k, as in `trials`.")
    breakdowns: dict[str, dict[str, dict[str, ConfidenceInterval]]] = Field(
        description="Summary section (by_category, ...) -> row -> its main metric's interval."
    )
    trials: TrialPower | None = Field(
        description="Spread over trials and detectable differences (None: one trial each)."
    )


def _pass_ratios(
    records: Sequence[Scored], ids: Sequence[str], trials: int, scorers: Mapping[str, Scorer]
) -> dict[str, Ratio]:
    outcomes: dict[str, list[bool]] = defaultdict(list)
    for record in records:
        outcomes[record.scenario.id].append(succeeded(record.score, scorers))
    ratios: dict[str, Ratio] = {}
    for k in range(1, trials + 1):
        num = np.zeros((len(ids), 1))
        den = np.zeros((len(ids), 1))
        for row, sid in enumerate(ids):
            trial_outcomes = outcomes[sid]
            if len(trial_outcomes) >= k:
                num[row, 0] = comb(sum(trial_outcomes), k) / comb(len(trial_outcomes), k)
                den[row, 0] = 1.0
        ratios[f"{_PASS}{k}"] = Ratio(num, den)
    return ratios


def _grouped(
    records: Sequence[Scored], groups_of: Callable[[Scenario], Sequence[str]]
) -> dict[str, list[Scored]]:
    groups: dict[str, list[Scored]] = defaultdict(list)
    for record in records:
        for name in groups_of(record.scenario):
            groups[name].append(record)
    return dict(sorted(groups.items()))


def _one_group(group_of: Callable[[Scenario], str]) -> Callable[[Scenario], Sequence[str]]:
    return lambda scenario: [group_of(scenario)]


def _primary(parts: MetricParts) -> str:
    return parts.primary


def _breakdown(
    section: str,
    groups: dict[str, list[Scored]],
    metric_of: Callable[[MetricParts], str],
    settings: UncertaintySettings,
    scorers: Mapping[str, Scorer],
) -> dict[str, dict[str, ConfidenceInterval]]:
    out: dict[str, dict[str, ConfidenceInterval]] = {}
    for name, members in groups.items():
        parts = group_parts(scorers, {r.scenario.evaluation for r in members})
        metric = metric_of(parts)
        ids = sorted({r.scenario.id for r in members})
        ratios = metric_ratios(
            [r.score for r in members], ids, scorers, metrics={metric: parts.part(metric)}
        )
        out[name] = bootstrap_intervals(ratios, settings, f"{section}/{name}")
    return out


def run_uncertainty(
    records: Sequence[Scored],
    trials: int,
    settings: UncertaintySettings,
    scorers: Mapping[str, Scorer],
) -> RunUncertainty:
    """Intervals and trial power for a run's scored records (see the module docstring).

    Args:
        records: Every stored trial that was not an infrastructure error, with its scenario;
            unscored ones (score None) are left out.
        trials: Trials per scenario the run asked for (pass^k for k = 1..trials).
        settings: Level, resamples, seed, interval method and assumed power.
        scorers: The catalog's scorers by name: how each method's metrics decompose.
    """
    kept = [r for r in records if r.score.score is not None]
    ids = sorted({r.scenario.id for r in kept})
    ratios = {
        **metric_ratios([r.score for r in kept], ids, scorers),
        **_pass_ratios(kept, ids, trials, scorers),
    }
    intervals = bootstrap_intervals(ratios, settings, "metrics")
    breakdowns = {
        "by_category": _breakdown(
            "by_category",
            _grouped(kept, lambda s: s.categories),
            lambda parts: parts.category,
            settings,
            scorers,
        )
    }
    if any(r.scenario.augmentation for r in kept):
        breakdowns["by_augmentation"] = _breakdown(
            "by_augmentation",
            _grouped(kept, lambda s: [augmentation_of(s)]),
            lambda parts: parts.primary,
            settings,
            scorers,
        )
    if any(r.scenario.domain for r in kept):
        breakdowns["by_domain"] = _breakdown(
            "by_domain",
            _grouped(kept, lambda s: [s.domain or "other"]),
            lambda parts: parts.primary,
            settings,
            scorers,
        )
    for method in sorted({r.scenario.evaluation for r in kept}):
        mine = [r for r in kept if r.scenario.evaluation == method]
        for name, group_of in parts_of(scorers, method).breakdowns.items():
            groups = _grouped(mine, _one_group(group_of))
            breakdowns[name] = _breakdown(name, groups, _primary, settings, scorers)
    scores: dict[str, list[float]] = defaultdict(list)
    for record in sorted(kept, key=lambda r: (r.scenario.id, r.score.trial)):
        scores[record.scenario.id].append(float(record.score.score or 0.0))
    return RunUncertainty(
        settings=settings,
        metrics={k: v for k, v in intervals.items() if not k.startswith(_PASS)},
        pass_hat_k={k.removeprefix(_PASS): v for k, v in intervals.items() if k.startswith(_PASS)},
        breakdowns={k: v for k, v in breakdowns.items() if v},
        trials=trial_power(scores, level=settings.level, power=settings.power),
    )
