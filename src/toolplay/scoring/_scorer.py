"""A scoring method as the catalog registers it: its scorer, its aggregator and its metrics.

A scorer is pure: `(setup, trajectory, context) -> ScenarioScore`, no I/O, no model calls
beyond the injected text similarity. Its aggregator turns a run's scored records into a
`MethodSummary`. Its metrics are declared beside both (name, range, how they aggregate, which
published method they come from), so the glossary, the report and the CLI all read one
definition. A scenario names its method in `evaluation`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from toolplay.messages import Trajectory
from toolplay.scenarios import ReferenceCall, Scenario, ScenarioSetup
from toolplay.scoring._aggregates import MethodSummary, MetricValues
from toolplay.scoring._decomposition import MetricParts
from toolplay.scoring._evidence import ScenarioScore
from toolplay.scoring._result import ScoringContext
from toolplay.settings import Settings


class Scored(NamedTuple):
    """A scenario with the score of one of its trials."""

    scenario: Scenario
    score: ScenarioScore


ScoreFunction = Callable[[ScenarioSetup, Trajectory, ScoringContext], ScenarioScore]
AggregateFunction = Callable[[Sequence[Scored]], MethodSummary]
ReferenceCheck = Callable[[ReferenceCall, Any, str | None], bool]


@dataclass(frozen=True)
class Metric:
    """One metric a method reports (an entry of the glossary)."""

    name: str
    description: str
    range: str = "0 to 1, higher is better"
    aggregation: str = "mean over scored scenario trials"
    method: str = "toolplay"
    """The published method it comes from (ToolSandbox, ToolTalk, AutoDE) or toolplay."""


@dataclass(frozen=True)
class Scorer:
    """A scoring method: scorer, aggregator and metrics, declared together."""

    name: str
    score: ScoreFunction
    aggregate: AggregateFunction
    metrics: tuple[Metric, ...]
    description: str = ""
    reference_check: ReferenceCheck | None = None
    """How validation judges a replayed reference call against its record (default: the same
    result, or a failure where an exception is recorded)."""
    needs_similarity: bool = False
    """It compares free text with the embedding model (loaded lazily, recorded with the run)."""
    parts: MetricParts | None = None
    """How its headline metrics decompose into per-scenario parts, for confidence intervals
    and paired tests (None: read as the mean scenario score, as `mean_score` reports it)."""
    settings: type[Settings] | None = None
    """Its own knobs (read with `context.settings.of(...)`), reachable with `--option`."""


def score_trajectory(
    setup: ScenarioSetup, trajectory: Trajectory, scorer: Scorer, context: ScoringContext
) -> ScenarioScore:
    """Score one trajectory (a None score for an infrastructure error: never scored)."""
    scenario = setup.scenario
    if trajectory.termination == "infrastructure_error":
        return ScenarioScore(
            scenario_id=scenario.id,
            trial=trajectory.trial,
            evaluation=scenario.evaluation,
            score=None,
            error=trajectory.error,
        )
    return scorer.score(setup, trajectory, context)


def group_counts(records: Sequence[Scored]) -> dict[str, int]:
    """How many distinct scenarios (`scenarios`) and scored trials (`trials`) a group holds."""
    scored = [r for r in records if r.score.score is not None]
    return {"scenarios": len({r.scenario.id for r in scored}), "trials": len(scored)}


def mean_score(records: Sequence[Scored]) -> MethodSummary:
    """The default aggregation: mean score and the share of perfect scores."""
    scores = [r.score.score for r in records if r.score.score is not None]
    perfect = [s for s in scores if s >= 1.0]
    return MethodSummary(
        metrics=MetricValues.of(
            {
                "score": sum(scores) / len(scores) if scores else None,
                "perfect_rate": len(perfect) / len(scores) if scores else None,
            }
        )
    )


def aggregate(records: Sequence[Scored], scorers: Mapping[str, Scorer]) -> MethodSummary:
    """A run's method summary: each method's aggregate, merged (one method is usual)."""
    merged: dict[str, Any] = {}
    for method in sorted({r.scenario.evaluation for r in records}):
        scorer = scorers.get(method)
        group = [r for r in records if r.scenario.evaluation == method]
        part = scorer.aggregate(group) if scorer is not None else mean_score(group)
        _merge(merged, part.model_dump())
    return MethodSummary.model_validate(merged)


def _merge(into: dict[str, Any], part: dict[str, Any]) -> None:
    """Merge `part` into `into`, recursively; a None never replaces a value."""
    for key, value in part.items():
        if isinstance(into.get(key), dict) and isinstance(value, dict):
            _merge(into[key], value)
        elif value is not None or key not in into:
            into[key] = value
