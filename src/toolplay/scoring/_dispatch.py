"""Route each scenario to its method's scorer and each run to its method's summary.

Scorers are pure: `(scenario, trajectory, context) -> ScenarioScore`. Aggregators turn the
scored records of a run into the method's summary metrics. Each method registers both here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import fmean
from typing import Any

from toolplay.messages import Trajectory
from toolplay.scenarios import ReferenceCall, Scenario
from toolplay.scoring._autode import aggregate_slots, score_slots
from toolplay.scoring._milestones import aggregate_milestones, score_milestones
from toolplay.scoring._result import ScenarioScore, ScoringContext
from toolplay.scoring._state import score_state
from toolplay.scoring._tooltalk import reproduces_reference, score_tooltalk
from toolplay.scoring._tooltalk_summary import aggregate_tooltalk

Scorer = Callable[[Scenario, Trajectory, ScoringContext], ScenarioScore]
Aggregator = Callable[[Sequence[tuple[Scenario, ScenarioScore]]], dict[str, Any]]


def _aggregate_mean(records: Sequence[tuple[Scenario, ScenarioScore]]) -> dict[str, Any]:
    scores = [r.score for _, r in records if r.score is not None]
    perfect = [s for s in scores if s >= 1.0]
    return {
        "metrics": {
            "score": fmean(scores) if scores else None,
            "perfect_rate": len(perfect) / len(scores) if scores else None,
        }
    }


SCORERS: dict[str, Scorer] = {
    "state": lambda scenario, trajectory, context: score_state(scenario, trajectory),
    "milestones": score_milestones,
    "tooltalk": score_tooltalk,
    "slots": score_slots,
}
AGGREGATORS: dict[str, Aggregator] = {
    "state": _aggregate_mean,
    "milestones": aggregate_milestones,
    "tooltalk": aggregate_tooltalk,
    "slots": aggregate_slots,
}
REFERENCE_CHECKS: dict[str, Callable[[ReferenceCall, Any, str | None], bool]] = {
    "tooltalk": reproduces_reference,
}
"""How validation judges a replayed reference call against its record, per method (default:
the same result, or a failure where an exception is recorded)."""


def score_trajectory(
    scenario: Scenario, trajectory: Trajectory, context: ScoringContext | None = None
) -> ScenarioScore:
    """Score one trajectory with its scenario's method (None score on infrastructure errors)."""
    if trajectory.termination == "infrastructure_error":
        return ScenarioScore(
            scenario_id=scenario.id,
            trial=trajectory.trial,
            evaluation=scenario.evaluation,
            score=None,
            details={"error": trajectory.error},
        )
    scorer = SCORERS.get(scenario.evaluation)
    if scorer is None:
        raise KeyError(f"no scorer registered for evaluation {scenario.evaluation!r}")
    return scorer(scenario, trajectory, context or ScoringContext())


def aggregate(records: Sequence[tuple[Scenario, ScenarioScore]]) -> dict[str, Any]:
    """Summary metrics for a run, per evaluation method present (merged; one method is usual)."""
    summary: dict[str, Any] = {}
    methods = sorted({s.evaluation for s, _ in records})
    for method in methods:
        part = AGGREGATORS.get(method, _aggregate_mean)(
            [(s, r) for s, r in records if s.evaluation == method]
        )
        for key, value in part.items():
            if key in summary and isinstance(summary[key], dict) and isinstance(value, dict):
                summary[key].update(value)
            else:
                summary[key] = value
    summary.setdefault("metrics", {})
    return summary
