"""The evidence of a `slots` score: slot precision, recall and F1 of the scored call."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from toolplay.scoring import Evidence


class CallRecord(BaseModel):
    """A function call: name and arguments (the arguments' raw text when not an object)."""

    name: str
    arguments: Any


class SlotPrediction(CallRecord):
    """The scored call: its arguments as parsed, and the slots AutoDE records from them."""

    slots: dict[str, Any] | None = Field(
        default=None,
        description="The arguments after the reference's cleaning (what its results files "
        "store); None when they are not a JSON object.",
    )


class SlotEvidence(Evidence):
    """`slots` (AutoDE): slot precision, recall and F1 of the scored call."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["slots"] = "slots"
    slot_precision: float
    slot_recall: float
    slot_f1: float
    failure: str | None = Field(
        description="never_called, round_limit, parse_failure, assistant_error, "
        "wrong_function, or None when a call was scored."
    )
    reason: str = Field(
        default="",
        description="The failure in the reference's wording (its results files' `reason`): "
        "'Round limit reached', 'Arguments parse failed: TEXT', an error, or empty.",
    )
    state: Literal["success", "failure"] | None = Field(
        default=None,
        description="The reference's record state: success when a call's slots were recorded.",
    )
    correct: list[str]
    wrong: list[str]
    missing: list[str]
    label: CallRecord
    predicted: SlotPrediction | None
    matching: Literal["exact", "lenient"] = Field(
        default="exact", description="How slot values were compared (`slot_matching`)."
    )
