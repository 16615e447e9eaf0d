"""Scoring: pure functions from recorded trajectories to scores, and run aggregates."""

from toolplay.scoring._aggregates import (
    MethodSummary,
    MetricValues,
    ToolTalkGroup,
    ToolTalkTotals,
    TrialSpread,
)
from toolplay.scoring._agreement import Agreement, agreement, icc_3_1, pearson, spearman
from toolplay.scoring._autode import aggregate_slots, score_slots
from toolplay.scoring._builtin import builtin_scorers
from toolplay.scoring._embeddings import (
    EMBEDDING_MODEL,
    EmbeddingSimilarity,
    load_embedding_model,
    model_description,
    scoring_context,
)
from toolplay.scoring._evidence import (
    CallRecord,
    ConstraintValue,
    CustomEvidence,
    ErrorTypeCount,
    Evidence,
    GroundTruthCall,
    MilestoneEvidence,
    MilestoneMatch,
    PredictedCall,
    ScenarioScore,
    SlotEvidence,
    SlotPrediction,
    StateEvidence,
    TextSimilarity,
    ToolTalkCounts,
    ToolTalkEvidence,
)
from toolplay.scoring._milestones import aggregate_milestones, score_milestones
from toolplay.scoring._result import ScoringContext
from toolplay.scoring._scorer import (
    Metric,
    ReferenceCheck,
    Scored,
    Scorer,
    aggregate,
    group_counts,
    mean_score,
    score_trajectory,
)
from toolplay.scoring._settings import ScoringSettings, SlotMatching
from toolplay.scoring._slots import clean_prediction, slot_scores
from toolplay.scoring._state import final_world, score_state
from toolplay.scoring._system_agreement import SystemAgreement, system_agreement
from toolplay.scoring._tooltalk import reproduces_reference, score_tooltalk
from toolplay.scoring._tooltalk_compare import Call, calls_match
from toolplay.scoring._tooltalk_summary import aggregate_tooltalk

__all__ = [
    "EMBEDDING_MODEL",
    "Agreement",
    "Call",
    "CallRecord",
    "ConstraintValue",
    "CustomEvidence",
    "EmbeddingSimilarity",
    "ErrorTypeCount",
    "Evidence",
    "GroundTruthCall",
    "MethodSummary",
    "Metric",
    "MetricValues",
    "MilestoneEvidence",
    "MilestoneMatch",
    "PredictedCall",
    "ReferenceCheck",
    "ScenarioScore",
    "Scored",
    "Scorer",
    "ScoringContext",
    "ScoringSettings",
    "SlotEvidence",
    "SlotMatching",
    "SlotPrediction",
    "SystemAgreement",
    "StateEvidence",
    "TextSimilarity",
    "ToolTalkCounts",
    "ToolTalkEvidence",
    "ToolTalkGroup",
    "ToolTalkTotals",
    "TrialSpread",
    "aggregate",
    "aggregate_milestones",
    "aggregate_slots",
    "aggregate_tooltalk",
    "agreement",
    "builtin_scorers",
    "calls_match",
    "final_world",
    "group_counts",
    "icc_3_1",
    "load_embedding_model",
    "mean_score",
    "model_description",
    "pearson",
    "reproduces_reference",
    "score_milestones",
    "score_slots",
    "score_state",
    "score_tooltalk",
    "score_trajectory",
    "scoring_context",
    "clean_prediction",
    "slot_scores",
    "system_agreement",
    "spearman",
]
