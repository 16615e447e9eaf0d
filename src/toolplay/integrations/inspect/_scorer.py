"""toolplay's scores in Inspect: the scenario's scorer per sample, the method's aggregator as
the metric.

Each sample is scored by the catalog's scorer for its scenario (`Scenario.evaluation`) from the
recorded trajectory, exactly as `toolplay run` scores it; the `ScenarioScore` with its evidence
(milestone mapping, ToolTalk matching, slot P/R/F1) goes into the score's metadata, the value
is toolplay's score (unscored, NaN, when the scorer cannot judge the scenario).

The metric is not re-implemented: `toolplay_metrics` rebuilds toolplay's scored records from the
scores and calls the catalog's aggregators (`toolplay.scoring.aggregate`), so ToolTalk's are
micro averages, the sandbox's means, AutoDE's macro averages, as in `summary.json`. It reads
every epoch's score (`scores="unreduced"`): epochs are trials, and toolplay pools them.
"""

from __future__ import annotations

import math

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from toolplay.catalog import Catalog, build_catalog
from toolplay.integrations.inspect._plan import TaskPlan
from toolplay.integrations.inspect._records import (
    EMBEDDING_KEY,
    SCORE_KEY,
    TRAJECTORY_KEY,
    scored_record,
)
from toolplay.messages import Trajectory
from toolplay.scoring import ScenarioScore, aggregate, score_trajectory


@metric(scores="unreduced")
def toolplay_metrics(catalog: Catalog | None = None) -> Metric:
    """The metrics of the samples' scoring methods, by the catalog's aggregators.

    Args:
        catalog: Where the methods' aggregators are found (default: the built-ins and the
            installed plugins, built on first use).
    """
    found: list[Catalog] = [catalog] if catalog is not None else []

    def compute(scores: list[SampleScore]) -> Value:
        if not found:
            found.append(build_catalog())
        records = [
            record
            for s in scores
            if (record := scored_record(s.score.metadata, s.sample_metadata)) is not None
        ]
        summary = aggregate(records, found[0].scorers)
        return {k: float(v) for k, v in summary.metrics.values().items() if v is not None}

    return compute


@scorer(metrics=[toolplay_metrics()])
def toolplay_score(plan: TaskPlan) -> Scorer:
    """Score the sample's trajectory with its scenario's toolplay scorer."""

    async def score(state: TaskState, target: Target) -> Score:
        data = state.store.get(TRAJECTORY_KEY)
        if data is None:
            return Score.unscored(
                reason="scoring_failed", explanation="the sample holds no toolplay trajectory"
            )
        trajectory = Trajectory.model_validate(data)
        scenario = plan.scenario(state.sample_id)
        method = plan.catalog.scorer(scenario.evaluation)
        scored = score_trajectory(plan.catalog.setup(scenario), trajectory, method, plan.context)
        return Score(
            value=math.nan if scored.score is None else scored.score,
            answer=trajectory.termination,
            explanation=explain(scored),
            metadata={
                SCORE_KEY: scored.model_dump(mode="json"),
                EMBEDDING_KEY: plan.context.embedding_model,
            },
        )

    return score


_EXPLAINED = (
    "milestone_similarity",
    "minefield_similarity",
    "precision",
    "recall",
    "slot_precision",
    "slot_recall",
    "slot_f1",
    "failure",
    "turn_count",
)


def explain(scored: ScenarioScore) -> str:
    """One line on a score: the method, the value and its main evidence."""
    if scored.score is None:
        return f"{scored.evaluation}: not scored ({scored.error})"
    parts = [f"{scored.evaluation} score {scored.score:.4f}"]
    evidence = scored.evidence.model_dump() if scored.evidence is not None else {}
    for key in _EXPLAINED:
        if evidence.get(key) is not None:
            value = evidence[key]
            parts.append(f"{key} {value:.4f}" if isinstance(value, float) else f"{key} {value}")
    return "; ".join(parts)
