"""AutoDE's section of a run summary: failure counts and each metric's spread over trials."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from toolplay.scoring import TrialSpread


class SlotsSection(BaseModel):
    """The `slots` scorer's own part of a run summary."""

    failures: dict[str, int] = Field(
        default_factory=dict, description="Dialogues per failure reason."
    )
    failure_reasons: dict[str, int] = Field(
        default_factory=dict,
        description="Failed dialogues per reason in the reference's wording (a parse "
        "failure's text cut after its colon).",
    )
    over_trials: dict[str, TrialSpread] | None = Field(
        default=None, description="Each metric's mean and spread over trials."
    )

    @model_serializer(mode="wrap")
    def _without_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Leave out the spread when there is none (no trial was scored)."""
        data: dict[str, Any] = handler(self)
        if data.get("over_trials") is None:
            data.pop("over_trials", None)
        return data
