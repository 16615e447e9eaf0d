"""The evidence behind a score: what a report shows to explain a number, typed by its scorer.

Every scorer returns a `ScenarioScore` whose `evidence` is an `Evidence`: its `kind` (the
scorer's name), `validation_problems`, and the fields of the scorer's own model, a subclass the
scorer declares (`Scorer.evidence`; ToolSandbox's milestone mapping, ToolTalk's call matching,
AutoDE's slots, a plugin's own). The union is open: a stored score is read back as a plain
`Evidence` holding every field it was written with, and `evidence_as(evidence, Model)` gives it
typed (the run summary and the reports read each record through its scorer). A plugin that
declares no model may use `CustomEvidence`, which keeps whatever fields it is given.

Records stored before evidence was typed carried a free `details` dict: `ScenarioScore` reads
those too (the keys were the same), so old run folders keep loading.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, model_validator

from toolplay.users import UserErrors

__all__ = [
    "CustomEvidence",
    "Evidence",
    "ScenarioScore",
    "StateEvidence",
    "evidence_as",
    "evidence_kind",
]

E = TypeVar("E", bound="Evidence")


class Evidence(BaseModel):
    """The evidence of one score: its scorer's `kind`, plus the fields of the scorer's model.

    Read back from a file it keeps every field it was written with; `evidence_as` makes it
    the scorer's model again. A scorer's own model subclasses it and refuses unknown fields.
    """

    model_config = ConfigDict(extra="allow")

    validation_problems: list[str] = Field(
        default_factory=list,
        description="Problems of the scenario itself found while scoring the reference "
        "solution (validation only).",
    )
    kind: str = Field(description="The name of the scorer that wrote it.")


CustomEvidence = Evidence
"""Evidence of a plugin's scorer that declares no model of its own: `kind` plus any fields."""


def evidence_kind(model: type[Evidence]) -> str:
    """The `kind` a scorer's evidence model writes (its `kind` field's default)."""
    default = model.model_fields["kind"].default
    return default if isinstance(default, str) else ""


def evidence_as(evidence: Evidence | None, model: type[E]) -> E | None:
    """`evidence` as the scorer's `model` (None when it is another scorer's, or absent).

    Evidence read back from a file is a plain `Evidence`; this validates its fields as
    `model` (a stored record that does not fit raises pydantic's ValidationError).
    """
    if evidence is None or isinstance(evidence, model):
        return evidence
    if evidence.kind != evidence_kind(model):
        return None
    return model.model_validate(evidence.model_dump())


class StateEvidence(Evidence):
    """`state`: tables either run changed, and those that ended unlike the reference's."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["state"] = "state"
    tables: list[str]
    differing: list[str]


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
    evidence: SerializeAsAny[Evidence] | None = None
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
