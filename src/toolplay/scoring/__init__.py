"""Scoring: pure functions from recorded trajectories to scores, and run aggregates."""

from toolplay.scenarios import slot_label
from toolplay.scoring._agreement import Agreement, agreement, icc_3_1, pearson, spearman
from toolplay.scoring._autode import MATCHING_OPTION, MATCHINGS, aggregate_slots, score_slots
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
from toolplay.scoring._milestones import aggregate_milestones, score_milestones
from toolplay.scoring._result import ScenarioScore, ScoringContext, TextSimilarity
from toolplay.scoring._slots import clean_prediction, slot_scores
from toolplay.scoring._state import final_world, reference_world, score_state
from toolplay.scoring._system_agreement import SystemAgreement, system_agreement
from toolplay.scoring._tooltalk import reproduces_reference, score_tooltalk
from toolplay.scoring._tooltalk_compare import Call, calls_match
from toolplay.scoring._tooltalk_summary import aggregate_tooltalk

__all__ = [
    "SystemAgreement",
    "system_agreement",
    "MATCHING_OPTION",
    "MATCHINGS",
    "clean_prediction",
    "slot_scores",
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
