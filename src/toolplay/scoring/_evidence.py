"""The evidence behind a score, typed per method: what a report shows to explain a number.

Every scorer returns a `ScenarioScore` whose `evidence` is one member of the `Evidence` union,
told apart by `kind` (the scorer's name). Built-in methods have their own models; a plugin's
scorer may use `CustomEvidence`, which keeps whatever fields it is given. Records stored before
evidence was typed carried a free `details` dict: `ScenarioScore` reads those too (the keys were
the same), so old run folders keep loading.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from toolplay.users import UserErrors


class _Evidence(BaseModel):
    model_config = ConfigDict(extra="forbid")

    validation_problems: list[str] = Field(
        default_factory=list,
        description="Problems of the scenario itself found while scoring the reference "
        "solution (validation only).",
    )


class StateEvidence(_Evidence):
    """`state`: tables either run changed, and those that ended unlike the reference's."""

    kind: Literal["state"] = "state"
    tables: list[str]
    differing: list[str]


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


class MilestoneEvidence(_Evidence):
    """`milestones` (ToolSandbox): the best mapping of milestones and minefields."""

    kind: Literal["milestones"] = "milestones"
    milestone_similarity: float
    minefield_similarity: float
    milestone_mapping: list[MilestoneMatch]
    minefield_mapping: list[MilestoneMatch]
    turn_count: int
    messages: int


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


class ToolTalkEvidence(_Evidence):
    """`tooltalk`: the call matching of one conversation."""

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


class SlotEvidence(_Evidence):
    """`slots` (AutoDE): slot precision, recall and F1 of the scored call."""

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


_BUILTIN_KINDS = ("milestones", "slots", "state", "tooltalk")


class CustomEvidence(_Evidence):
    """Evidence of a plugin's scorer: its `kind` plus any fields it chooses."""

    model_config = ConfigDict(extra="allow")

    kind: str = Field(
        description="The plugin scorer's name (never one of the built-in kinds).",
        json_schema_extra={"not": {"enum": list(_BUILTIN_KINDS)}},
    )


def _evidence_tag(value: Any) -> str:
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    if isinstance(value, CustomEvidence):
        return "custom"
    return kind if kind in _BUILTIN_KINDS else "custom"


Evidence = Annotated[
    Annotated[StateEvidence, Tag("state")]
    | Annotated[MilestoneEvidence, Tag("milestones")]
    | Annotated[ToolTalkEvidence, Tag("tooltalk")]
    | Annotated[SlotEvidence, Tag("slots")]
    | Annotated[CustomEvidence, Tag("custom")],
    Discriminator(_evidence_tag),
]
"""The evidence of one score, by method (`kind`)."""


class ScenarioScore(BaseModel):
    """The score of one trajectory with the evidence behind it.

    `score` is None when the scenario could not be evaluated (an infrastructure error, or a
    scenario its scorer cannot judge): such records are listed with their `error`, never
    averaged. `user_errors` holds the user-error checks' findings (`toolplay.users`), which
    never change the score.
    """

    scenario_id: str
    trial: int = 0
    evaluation: str
    score: float | None
    evidence: Evidence | None = None
    error: str | None = None
    user_errors: UserErrors | None = Field(
        default=None,
        description="What the user-error checks found in the simulated user's messages (absent "
        "in runs scored before the checks existed: `toolplay score` adds it). A flagged trial "
        "keeps its score.",
    )

    @model_validator(mode="before")
    @classmethod
    def _from_details(cls, data: Any) -> Any:
        """Read records stored before evidence was typed (a free `details` dict)."""
        if not isinstance(data, dict) or "details" not in data:
            return data
        data = dict(data)
        details = dict(data.pop("details") or {})
        error = details.pop("error", None)
        if error is not None and "error" not in data:
            data["error"] = error
        if details and "evidence" not in data:
            data["evidence"] = {"kind": data.get("evaluation"), **details}
        return data
