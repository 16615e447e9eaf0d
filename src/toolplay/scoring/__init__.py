"""Scoring: the scorer contract, and the core's own scorer (`state`).

A scoring method is a `Scorer` (score, aggregate, metrics, evidence model, success rule,
settings, how its evidence and its summary section read in a report, how its metrics
decompose); the published methods' scorers live in `toolplay.methods`, each with its own
evidence and section models. What else is here serves every scorer: the records a scorer
returns (`ScenarioScore`, `Evidence`, `MethodSummary`), what a report shows of them
(`EvidenceView`, `SectionView`), the shared scoring resources (`ScoringContext`, the embedding
similarity) and the ratios of per-scenario parts intervals and paired tests recompute.
"""

from toolplay.scoring._aggregates import MethodSummary, MetricValues, RunAggregate
from toolplay.scoring._builtin import builtin_scorers
from toolplay.scoring._decomposition import (
    MEAN_PARTS,
    MetricPart,
    MetricParts,
    Parts,
    evidence_part,
    perfect_part,
    score_part,
    with_evidence,
)
from toolplay.scoring._embeddings import EmbeddingSimilarity, load_embedding_model, scoring_context
from toolplay.scoring._evidence import (
    CustomEvidence,
    Evidence,
    ScenarioScore,
    StateEvidence,
    evidence_as,
    evidence_kind,
)
from toolplay.scoring._metric_parts import group_parts, metric_ratios, parts_of
from toolplay.scoring._result import ScoringContext, TextSimilarity
from toolplay.scoring._scorer import (
    Metric,
    ReferenceCheck,
    Scored,
    Scorer,
    VetoProbe,
    VetoProbes,
    aggregate,
    group_counts,
    mean_score,
    score_trajectory,
    succeeded,
)
from toolplay.scoring._settings import ScoringSettings
from toolplay.scoring._views import (
    Breakdown,
    CheckParts,
    EvidenceView,
    MetricValue,
    SectionView,
    TrialSpread,
    cell_text,
    empty_view,
)

__all__ = [
    "MEAN_PARTS",
    "Breakdown",
    "CheckParts",
    "CustomEvidence",
    "EmbeddingSimilarity",
    "Evidence",
    "EvidenceView",
    "MethodSummary",
    "Metric",
    "MetricPart",
    "MetricParts",
    "MetricValue",
    "MetricValues",
    "Parts",
    "ReferenceCheck",
    "RunAggregate",
    "ScenarioScore",
    "Scored",
    "Scorer",
    "ScoringContext",
    "ScoringSettings",
    "SectionView",
    "StateEvidence",
    "TextSimilarity",
    "TrialSpread",
    "VetoProbe",
    "VetoProbes",
    "aggregate",
    "builtin_scorers",
    "cell_text",
    "empty_view",
    "evidence_as",
    "evidence_kind",
    "evidence_part",
    "group_counts",
    "group_parts",
    "load_embedding_model",
    "mean_score",
    "metric_ratios",
    "parts_of",
    "perfect_part",
    "score_part",
    "score_trajectory",
    "scoring_context",
    "succeeded",
    "with_evidence",
]
