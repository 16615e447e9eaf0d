"""Scoring: pure functions from recorded trajectories to scores, and run aggregates."""

from toolplay.scoring._agreement import Agreement, agreement, icc_3_1, pearson, spearman
from toolplay.scoring._autode import aggregate_slots, score_slots, slot_label
from toolplay.scoring._dispatch import (
    AGGREGATORS,
    REFERENCE_CHECKS,
    SCORERS,
    aggregate,
    score_trajectory,
)
from toolplay.scoring._embeddings import (
    EMBEDDING_MODEL,
    EmbeddingSimilarity,
    load_embedding_model,
    model_description,
    scoring_context_for,
)
from toolplay.scoring._metric_parts import (
    GENERIC_METRIC,
    category_metric,
    metric_part,
    metric_ratios,
    primary_metric,
)
from toolplay.scoring._milestones import aggregate_milestones, score_milestones
from toolplay.scoring._multiple import RankedRun, holm, significance_ranking
from toolplay.scoring._paired import PairedDifference, paired_difference
from toolplay.scoring._result import ScenarioScore, ScoringContext, TextSimilarity
from toolplay.scoring._state import final_world, reference_world, score_state
from toolplay.scoring._tooltalk import reproduces_reference, score_tooltalk
from toolplay.scoring._tooltalk_compare import Call, calls_match
from toolplay.scoring._tooltalk_summary import DEFAULT_SPLIT, aggregate_tooltalk
from toolplay.scoring._trial_power import (
    DetectableDifference,
    ScenarioSpread,
    TrialPower,
    scenario_spreads,
    trial_power,
)
from toolplay.scoring._uncertainty import (
    ConfidenceInterval,
    Ratio,
    UncertaintySettings,
    bootstrap_intervals,
    ratio_value,
)

__all__ = [
    "DEFAULT_SPLIT",
    "GENERIC_METRIC",
    "category_metric",
    "metric_part",
    "ratio_value",
    "ConfidenceInterval",
    "DetectableDifference",
    "PairedDifference",
    "RankedRun",
    "Ratio",
    "ScenarioSpread",
    "TrialPower",
    "UncertaintySettings",
    "bootstrap_intervals",
    "holm",
    "metric_ratios",
    "paired_difference",
    "primary_metric",
    "scenario_spreads",
    "significance_ranking",
    "trial_power",
    "aggregate_slots",
    "score_slots",
    "slot_label",
    "AGGREGATORS",
    "EMBEDDING_MODEL",
    "REFERENCE_CHECKS",
    "Call",
    "EmbeddingSimilarity",
    "aggregate_tooltalk",
    "calls_match",
    "load_embedding_model",
    "model_description",
    "reproduces_reference",
    "score_tooltalk",
    "scoring_context_for",
    "Agreement",
    "SCORERS",
    "ScenarioScore",
    "ScoringContext",
    "TextSimilarity",
    "aggregate",
    "aggregate_milestones",
    "agreement",
    "final_world",
    "icc_3_1",
    "pearson",
    "reference_world",
    "score_milestones",
    "score_state",
    "score_trajectory",
    "spearman",
]
