"""The scenario model: everything needed to play out and score one conversation.

Scenario files are YAML or JSON. Unknown fields are refused (`extra="forbid"`), so a typo is an
error rather than a silently ignored setting. Milestones and minefields have their typed form
in `_milestone_spec`; a scenario that gives them and no `evaluation` is scored by milestones.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from toolplay.scenarios._legacy import migrate_setter_arguments
from toolplay.scenarios._milestone_spec import Milestone

Category = str
"""Scenario category, e.g. `single_tool_call` or `state_dependency`."""

Evaluation = str
"""Which scorer judges the scenario: the name of a scorer in the catalog (built in: `state`,
`milestones`, `tooltalk`, `slots`); loading checks it against the catalog."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReferenceCall(_Strict):
    """One ground-truth tool call, optionally with the result it is known to produce."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: Any = None
    exception: str | None = None
    check: bool = Field(
        default=False, description="Validation replays the call and checks `result`/`exception`."
    )
    recorded_arguments: dict[str, Any] | None = Field(
        default=None,
        description="The arguments exactly as the source dataset recorded them, when they "
        "differ from `arguments` (ToolTalk's carry the session token its executor supplies): "
        "what a method's executor replays and shows the way its reference did.",
    )


class ReferenceTurn(_Strict):
    """One turn of the reference solution: the user's words, the calls, the reply."""

    user: str | None = None
    calls: list[ReferenceCall] = Field(default_factory=list)
    reply: str | None = None


class Demonstration(_Strict):
    """A few-shot example dialogue shown only to a model-driven user."""

    messages: list[dict[str, str]] = Field(
        description="Each item has `role` (user|assistant) and `content`."
    )


class UserSide(_Strict):
    """How the user behaves: a script for the scripted user, a goal for a model-driven one."""

    script: list[str] = Field(
        default_factory=list, description="Utterances in order; the first opens the conversation."
    )
    goal: str | None = None
    knowledge: str | None = Field(default=None, description="Knowledge boundary of the user.")
    demonstrations: list[Demonstration] = Field(default_factory=list)


class WorldSpec(_Strict):
    """The initial world: which domains, table rows, frozen clock, session, seed."""

    domains: list[str]
    tables: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    clock: datetime = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
    session: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0

    @field_validator("clock")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class ToolSelection(_Strict):
    """Which tools the assistant is offered."""

    allow: list[str] | None = None
    deny: list[str] = Field(default_factory=list)
    distractors: list[str] | None = Field(
        default=None,
        description="Distraction tools in order of preference for the `distractors_N` "
        "augmentations (an exported ToolSandbox scenario carries the reference's ranking); "
        "default: ranked by toolplay's rule (same domain first, then name similarity).",
    )
    api_only: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Tools declared by an OpenAI function schema alone, with no "
        "implementation: a call is checked against the schema and recorded, nothing runs "
        "(see toolplay.tools._api_only).",
    )


class Scenario(_Strict):
    """One evaluation scenario."""

    id: str = Field(
        pattern=r"^[A-Za-z0-9_.:\-~@+]+$",
        description="`~` and `@` mark derived variants: `<base>~<state variant>@<augmentation>`.",
    )
    description: str = ""
    categories: list[Category] = Field(default_factory=list)
    world: WorldSpec
    tools: ToolSelection = Field(default_factory=ToolSelection)
    user: UserSide = Field(default_factory=UserSide)
    reference: list[ReferenceTurn] = Field(default_factory=list)
    evaluation: Evaluation = "state"
    milestones: list[Milestone] = Field(default_factory=list)
    minefields: list[Milestone] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    split: str | None = None
    domain: str | None = Field(
        default=None,
        description="The application domain it belongs to (e.g. AutoDE's API domain): the "
        "summary breaks results down by_domain, apart from the behaviour `categories`.",
    )
    augmentation: str | None = None
    base_id: str | None = None
    max_turns: int = Field(default=30, ge=1)

    @model_validator(mode="before")
    @classmethod
    def _milestones_imply_evaluation(cls, data: Any) -> Any:
        data = migrate_setter_arguments(data)
        if (
            isinstance(data, dict)
            and "evaluation" not in data
            and (data.get("milestones") or data.get("minefields"))
        ):
            return {**data, "evaluation": "milestones"}
        return data

    @property
    def script(self) -> list[str]:
        """The scripted user's utterances: the user side's script, else the reference's."""
        if self.user.script:
            return self.user.script
        return [turn.user for turn in self.reference if turn.user is not None]
