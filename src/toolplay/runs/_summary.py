"""Build `summary.json` from a run's stored results (never from in-memory state).

The summary is a pure function of the store: ordered by scenario id and trial, free of
wall-clock times and timings, so an interrupted run completed with `--resume` summarises to the
same bytes as an uninterrupted one. Trials ended by an infrastructure error are listed under
`error_list` and kept out of every score. Trials the store does not hold at all (a run
interrupted and not yet resumed, or rows dropped as damaged) are counted under `missing` and
listed under `missing_list`, so a partial summary says so; both keys appear only when some
trial is missing, which keeps a complete run's summary unchanged. `trials` (the header's
count, kept as `trials.k`) becomes a section with pass^k and the score's mean ± std over trials.
`uncertainty` holds the confidence intervals of the headline figures and the trial power
(`_uncertainty`), with the settings (level, resamples, seed) that produced them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from toolplay.messages import Trajectory, Usage
from toolplay.runs._trials import trial_statistics
from toolplay.runs._uncertainty import run_uncertainty
from toolplay.scenarios import Scenario, augmentation_of
from toolplay.scoring import ScenarioScore, UncertaintySettings, aggregate
from toolplay.store import StoredResult


def build_summary(
    scenarios: Sequence[Scenario],
    results: Sequence[StoredResult],
    header: dict[str, Any],
    *,
    uncertainty: UncertaintySettings | None = None,
) -> dict[str, Any]:
    """The run summary: counts, errors, terminations, usage, method metrics and intervals."""
    by_id = {s.id: s for s in scenarios}
    scored: list[tuple[Scenario, ScenarioScore]] = []
    errors: list[dict[str, Any]] = []
    terminations: Counter[str] = Counter()
    usage = Usage()
    for result in results:
        scenario = by_id.get(result.scenario_id)
        if scenario is None:
            continue
        trajectory = Trajectory.model_validate(result.trajectory)
        terminations[trajectory.termination] += 1
        usage = usage.add(trajectory.usage)
        if result.status == "error" or result.score is None:
            errors.append({"scenario_id": result.scenario_id, "trial": result.trial,
                           "error": result.error or trajectory.error})
            continue
        scored.append((scenario, ScenarioScore.model_validate(result.score)))
    summary: dict[str, Any] = dict(header)
    summary.update(
        scenarios=len(scenarios) * int(header.get("trials", 1)),
        completed=len(scored),
        errors=len(errors),
        error_list=errors,
        termination=dict(sorted(terminations.items())),
        usage=usage.model_dump(),
    )
    held = {(r.scenario_id, r.trial) for r in results}
    trials = int(header.get("trials", 1))
    missing = sorted(
        (s.id, t) for s in scenarios for t in range(trials) if (s.id, t) not in held
    )
    if missing:
        summary["missing"] = len(missing)
        summary["missing_list"] = [{"scenario_id": i, "trial": t} for i, t in missing]
    summary.update(aggregate(scored))
    summary.setdefault("by_category", _by_category(scored))
    by_augmentation = _by_augmentation(scenarios, scored)
    if by_augmentation:
        summary["by_augmentation"] = by_augmentation
    summary["trials"] = trial_statistics([score for _, score in scored], trials)
    settings = uncertainty or UncertaintySettings()
    summary["uncertainty"] = run_uncertainty(scored, trials, settings).model_dump(mode="json")
    return summary


def _by_augmentation(
    scenarios: Sequence[Scenario], scored: Sequence[tuple[Scenario, ScenarioScore]]
) -> dict[str, Any]:
    """The method's metrics per augmentation setting (`none`: unaugmented), plus `scenarios`.

    Present only when the run holds augmented scenarios (a run of plain scenarios would show
    one `none` row that repeats `metrics`).
    """
    if not any(s.augmentation for s in scenarios):
        return {}
    groups: dict[str, list[tuple[Scenario, ScenarioScore]]] = {
        augmentation_of(s): [] for s in scenarios
    }
    for scenario, score in scored:
        groups[augmentation_of(scenario)].append((scenario, score))
    return {
        name: {**aggregate(group).get("metrics", {}), "scenarios": len(group)}
        for name, group in groups.items()
    }


def _by_category(scored: Sequence[tuple[Scenario, ScenarioScore]]) -> dict[str, Any]:
    groups: dict[str, list[float]] = defaultdict(list)
    for scenario, score in scored:
        if score.score is None:
            continue
        for category in scenario.categories:
            groups[category].append(score.score)
    return {c: {"score": fmean(v), "scenarios": len(v)} for c, v in sorted(groups.items())}
