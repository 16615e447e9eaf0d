"""The evidence of a `tooltalk` score: the call matching of one conversation."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from toolplay.scoring import Evidence


class ToolTalkCounts(BaseModel):
    """ToolTalk's counts for one conversation (or summed over several)."""

    predictions: int = 0
    ground_truth: int = 0
    matches: int = 0
    actions: int = 0
    incorrect_actions: int = 0
    successes: int = 0


class PredictedCall(BaseModel):
    """One predicted call and what became of it."""

    turn: int | None
    tool: str
    arguments: Any
    error: str | None
    action: bool
    matches_ground_truth: int | None
    incorrect_action: bool
    message_index: int


class GroundTruthCall(BaseModel):
    """One ground-truth call and the prediction that matched it."""

    turn: int
    tool: str
    matched_by: int | None


class TextSimilarity(BaseModel):
    """A free-text pair the matching compared, with its similarity."""

    prediction: str
    ground_truth: str
    similarity: float


class ErrorTypeCount(BaseModel):
    """How often an error type occurred in a turn (turn None: the whole conversation)."""

    turn: int | None
    error_type: str
    count: int


class ToolTalkEvidence(Evidence):
    """`tooltalk`: the call matching of one conversation."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["tooltalk"] = "tooltalk"
    counts: ToolTalkCounts
    precision: float | None
    recall: float
    incorrect_action_rate: float
    success: bool
    soft_success: float
    split: str | None
    error_types: list[ErrorTypeCount]
    predictions: list[PredictedCall]
    ground_truth: list[GroundTruthCall]
    similarities: list[TextSimilarity]
    embedding_model: str | None = None
