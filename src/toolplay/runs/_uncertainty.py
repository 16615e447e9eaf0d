"""The summary's `uncertainty` section: intervals on every headline figure, and trial power.

Built from the same scored records as the rest of the summary (infrastructure errors left
out), with the pure statistics of `toolplay.scoring`: a bootstrap over scenarios for the
headline `metrics`, pass^k (each k) and the main metric of each breakdown row (`by_category`,
`by_augmentation`, ToolTalk `splits`); and, when scenarios have several scored trials, the
spread over trials and the smallest detectable difference (`trials`). Each group draws its
own seeded resamples (keyed by its name), so adding a category does not move another's
interval, and the same records and settings always give the same bytes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from math import comb

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from toolplay.runs._trials import succeeded
from toolplay.scenarios import Scenario, augmentation_of
from toolplay.scoring import (
    DEFAULT_SPLIT,
    ConfidenceInterval,
    Ratio,
    ScenarioScore,
    TrialPower,
    UncertaintySettings,
    bootstrap_intervals,
    category_metric,
    metric_part,
    metric_ratios,
    primary_metric,
    trial_power,
)

__all__ = ["RunUncertainty", "run_uncertainty"]

Records = Sequence[tuple[Scenario, ScenarioScore]]
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


def _pass_ratios(records: Records, ids: Sequence[str], trials: int) -> dict[str, Ratio]:
    outcomes: dict[str, list[bool]] = defaultdict(list)
    for _, record in records:
        outcomes[record.scenario_id].append(succeeded(record))
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
    records: Records, groups_of: Callable[[Scenario], Sequence[str]]
) -> dict[str, list[tuple[Scenario, ScenarioScore]]]:
    groups: dict[str, list[tuple[Scenario, ScenarioScore]]] = defaultdict(list)
    for scenario, record in records:
        for name in groups_of(scenario):
            groups[name].append((scenario, record))
    return dict(sorted(groups.items()))


def _breakdown(
    section: str,
    groups: dict[str, list[tuple[Scenario, ScenarioScore]]],
    metric_of: Callable[[str], str],
    settings: UncertaintySettings,
) -> dict[str, dict[str, ConfidenceInterval]]:
    out: dict[str, dict[str, ConfidenceInterval]] = {}
    for name, members in groups.items():
        methods = sorted({s.evaluation for s, _ in members})
        metric = metric_of(methods[0]) if len(methods) == 1 else metric_of("")
        ids = sorted({r.scenario_id for _, r in members})
        ratios = metric_ratios(
            [r for _, r in members], ids, metrics={metric: metric_part(methods[0], metric)}
        )
        out[name] = bootstrap_intervals(ratios, settings, f"{section}/{name}")
    return out


def run_uncertainty(records: Records, trials: int, settings: UncertaintySettings) -> RunUncertainty:
    """Intervals and trial power for a run's scored records (see the module docstring).

    Args:
        records: (scenario, score) of every stored trial that was not an infrastructure
            error; unscored ones (score None) are left out.
        trials: Trials per scenario the run asked for (pass^k for k = 1..trials).
        settings: Level, resamples, seed, interval method and assumed power.
    """
    kept = [(s, r) for s, r in records if r.score is not None]
    ids = sorted({r.scenario_id for _, r in kept})
    ratios = {**metric_ratios([r for _, r in kept], ids), **_pass_ratios(kept, ids, trials)}
    intervals = bootstrap_intervals(ratios, settings, "metrics")
    breakdowns = {
        "by_category": _breakdown(
            "by_category", _grouped(kept, lambda s: s.categories), category_metric, settings
        )
    }
    if any(s.augmentation for s, _ in kept):
        breakdowns["by_augmentation"] = _breakdown(
            "by_augmentation",
            _grouped(kept, lambda s: [augmentation_of(s)]),
            primary_metric,
            settings,
        )
    talk = [(s, r) for s, r in kept if s.evaluation == "tooltalk"]
    if talk:
        breakdowns["splits"] = _breakdown(
            "splits",
            _grouped(talk, lambda s: [s.split or DEFAULT_SPLIT]),
            primary_metric,
            settings,
        )
    scores: dict[str, list[float]] = defaultdict(list)
    for _, record in sorted(kept, key=lambda sr: (sr[1].scenario_id, sr[1].trial)):
        scores[record.scenario_id].append(float(record.score or 0.0))
    return RunUncertainty(
        settings=settings,
        metrics={k: v for k, v in intervals.items() if not k.startswith(_PASS)},
        pass_hat_k={k.removeprefix(_PASS): v for k, v in intervals.items() if k.startswith(_PASS)},
        breakdowns={k: v for k, v in breakdowns.items() if v},
        trials=trial_power(scores, level=settings.level, power=settings.power),
    )
