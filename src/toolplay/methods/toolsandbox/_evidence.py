"""The evidence of a `milestones` score: the best mapping of milestones and minefields."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from toolplay.scoring import Evidence


class ConstraintValue(BaseModel):
    """One constraint of a milestone and its similarity where the milestone was matched."""

    kind: str
    similarity: float


class MilestoneMatch(BaseModel):
    """Where a milestone (or minefield) was matched and how well."""

    id: str
    index: int | None = Field(description="Message index it was mapped to (None: no message).")
    similarity: float
    constraints: list[ConstraintValue] = Field(default_factory=list)


class MilestoneEvidence(Evidence):
    """`milestones` (ToolSandbox): the best mapping of milestones and minefields."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["milestones"] = "milestones"
    milestone_similarity: float
    minefield_similarity: float
    milestone_mapping: list[MilestoneMatch]
    minefield_mapping: list[MilestoneMatch]
    turn_count: int
    messages: int
