"""The typed milestone/minefield spec of a scenario file (ToolSandbox-style evaluation).

A milestone is a key event: a list of constraints that must all hold at one message index.
Milestones form a DAG through `after` (default: the previous milestone in the list, so a plain
list is a chain; `after: []` frees a milestone). Minefields use the same format and must not
happen. Constraint kinds:

- `state`: a table's rows equal (or `match: contains`) the target rows;
- `added` / `removed` / `updated`: the table's rows changed by exactly (or at least) the target
  rows relative to the `reference` snapshot (`start` = the initial world, or a milestone id);
- `guardrail`: the table is unchanged since `reference` (one id, or a list: since each);
- `tool_call`: the message is the result of a call to `tool` with the given arguments
  (`alternatives` for several acceptable calls; `outcome` success/error/any);
- `message`: the message goes `sender` → `recipient` with matching `content`;
- `flow`: a value taken from an earlier tool result (`from` a milestone, or `from_tool`) is
  passed on as an `argument` of this call or written in this message (`template`; with
  `formats`, in each of several number formats, the best counting).

Target values are literals (compared with the column's default similarity) or a mapping naming
the similarity: `{exact: v}`, `{rouge: text}`, `{contains: text}` (case-sensitive, as the
reference's; `{contains: text, ignore_case: true}` otherwise), `{close: x, tolerance: t}`,
`{one_of: [v, ...]}`. Cross-checks against the tool catalog live in `_milestone_checks`.

Implicit guardrails (ToolSandbox's rule): every milestone and minefield also requires each
world table that neither it, nor its predecessors, nor the milestones it refers to check
(through `state`/`added`/`removed`/`updated`) to be unchanged since each predecessor's and each
referred milestone's snapshot (`start` included). `guardrail_tables` narrows the tables that may
get one (default: all; `[]`: none), `guardrail_exclude` leaves tables out. A milestone may refer
to any number of earlier milestones.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

START = "start"
"""Reference name of the initial world (before the first message)."""

SIMILARITY_KEYS = ("exact", "rouge", "contains", "close", "one_of")
"""Keys that make a target mapping a similarity spec rather than a literal value."""

Role = Literal["system", "user", "assistant", "environment"]


def similarity_spec(value: Any) -> dict[str, Any] | None:
    """The similarity spec `value` denotes, or None for a literal; ValueError when malformed."""
    if not isinstance(value, dict) or not any(key in value for key in SIMILARITY_KEYS):
        return None
    named = [key for key in SIMILARITY_KEYS if key in value]
    if len(named) != 1:
        raise ValueError(f"name one similarity among {', '.join(SIMILARITY_KEYS)}, got {named}")
    kind = named[0]
    allowed = {kind, "tolerance"} if kind == "close" else {kind}
    if kind == "contains":
        allowed.add("ignore_case")
        if not isinstance(value.get("ignore_case", False), bool):
            raise ValueError("'ignore_case' must be true or false")
    extra = set(value) - allowed
    if extra:
        raise ValueError(f"unexpected key(s) {sorted(extra)} in a {kind!r} similarity")
    target = value[kind]
    if kind in ("rouge", "contains") and not isinstance(target, str):
        raise ValueError(f"{kind!r} needs a text, got {type(target).__name__}")
    if kind == "close":
        tolerance = value.get("tolerance", 1e-6)
        for label, number in (("close", target), ("tolerance", tolerance)):
            if isinstance(number, bool) or not isinstance(number, int | float):
                raise ValueError(f"{label!r} needs a number, got {number!r}")
            if not math.isfinite(number) or (label == "tolerance" and number < 0):
                raise ValueError(f"{label!r} must be a finite number (tolerance >= 0)")
    if kind == "one_of" and (not isinstance(target, list) or not target):
        raise ValueError("'one_of' needs a non-empty list of values")
    return dict(value)


def _check_targets(values: dict[str, Any]) -> dict[str, Any]:
    for column, value in values.items():
        try:
            similarity_spec(value)
        except ValueError as exc:
            raise ValueError(f"{column}: {exc}") from None
    return values


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class _Rows(_Strict):
    table: str
    rows: list[dict[str, Any]] = Field(
        description="Target rows: column -> literal or similarity spec; unlisted columns ignored."
    )
    match: Literal["equals", "contains"] = Field(
        default="equals", description="equals: exactly these rows; contains: at least these."
    )

    @field_validator("rows")
    @classmethod
    def _targets(cls, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [_check_targets(row) for row in rows]


class StateConstraint(_Rows):
    """The table at this index holds (exactly or at least) the target rows."""

    kind: Literal["state"]


class ChangeConstraint(_Rows):
    """Rows added, removed or updated since the `reference` snapshot match the targets."""

    kind: Literal["added", "removed", "updated"]
    reference: str = START


class GuardrailConstraint(_Strict):
    """The table is the same at this index as at `reference` (0/1, not averaged in)."""

    kind: Literal["guardrail"]
    table: str
    reference: str | list[str] = Field(
        default=START, description="A milestone id (or `start`), or a list: unchanged since each."
    )

    @field_validator("reference")
    @classmethod
    def _some(cls, value: str | list[str]) -> str | list[str]:
        if isinstance(value, list) and not value:
            raise ValueError("give at least one reference (or leave it out for `start`)")
        return value

    def references(self) -> list[str]:
        """Every snapshot the table must be unchanged since."""
        return [self.reference] if isinstance(self.reference, str) else list(self.reference)


class ToolAlternative(_Strict):
    """One acceptable call: real tool name and the arguments that matter."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)

    @field_validator("arguments")
    @classmethod
    def _targets(cls, arguments: dict[str, Any]) -> dict[str, Any]:
        return _check_targets(arguments)


class ToolCallConstraint(_Strict):
    """The message at this index is the result of a matching call."""

    kind: Literal["tool_call"]
    tool: str | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)
    alternatives: list[ToolAlternative] = Field(default_factory=list)
    outcome: Literal["success", "error", "any"] = "success"

    @field_validator("arguments")
    @classmethod
    def _targets(cls, arguments: dict[str, Any]) -> dict[str, Any]:
        return _check_targets(arguments)

    @model_validator(mode="after")
    def _one_form(self) -> ToolCallConstraint:
        if (self.tool is None) == (not self.alternatives):
            raise ValueError("give either `tool` (with `arguments`) or `alternatives`")
        if self.alternatives and self.arguments:
            raise ValueError("with `alternatives`, put `arguments` inside each alternative")
        return self

    def options(self) -> list[ToolAlternative]:
        """Every acceptable call."""
        if self.tool is not None:
            return [ToolAlternative(tool=self.tool, arguments=self.arguments)]
        return list(self.alternatives)


class MessageConstraint(_Strict):
    """The message at this index goes sender → recipient with matching content."""

    kind: Literal["message"]
    sender: Role = "assistant"
    recipient: Role = "user"
    content: Any = Field(description="Text (ROUGE-L by default) or a similarity spec.")

    @field_validator("content")
    @classmethod
    def _target(cls, content: Any) -> Any:
        _check_targets({"content": content})
        return content


class FlowConstraint(_Strict):
    """A value from an earlier tool result reappears in this call's argument or message."""

    kind: Literal["flow"]
    from_: str | None = Field(default=None, alias="from")
    from_tool: str | None = None
    path: str = Field(default="", description="Dotted path into the result; `*` = any item.")
    tool: str | None = None
    argument: str | None = None
    template: str | None = Field(default=None, description="Message text with `{value}`.")
    similarity: Literal["exact", "close", "contains", "rouge"] | None = None
    ignore_case: bool = Field(default=False, description="`contains` ignores case.")
    tolerance: float = Field(default=1e-6, ge=0)
    round: int | None = None
    formats: list[str] | None = Field(
        default=None,
        description="Format specs (e.g. `.0f`, `.1f`): the value, as a float, is written in "
        "each and the best match counts; a value that is no number gives none (`template` "
        "flows only).",
    )

    @model_validator(mode="after")
    def _one_form(self) -> FlowConstraint:
        if (self.from_ is None) == (self.from_tool is None):
            raise ValueError("give exactly one of `from` (a milestone id) and `from_tool`")
        if (self.argument is None) == (self.template is None):
            raise ValueError("give exactly one of `argument` and `template`")
        if self.template is not None and "{value}" not in self.template:
            raise ValueError("`template` must contain `{value}`, where the value goes")
        if self.template is not None and self.tool is not None:
            raise ValueError("`tool` applies to `argument` flows only")
        if self.template is not None and self.similarity == "close":
            raise ValueError("a `template` flow compares text: use rouge, contains or exact")
        if self.from_ == START:
            raise ValueError("`from` names the milestone whose tool result holds the value")
        if self.formats is not None:
            if self.template is None or self.round is not None or not self.formats:
                raise ValueError("`formats` needs a `template` flow, at least one, no `round`")
            for spec in self.formats:
                try:
                    format(1.5, spec)
                except ValueError:
                    raise ValueError(f"`formats`: {spec!r} is not a float format spec") from None
        return self


Constraint = Annotated[
    StateConstraint
    | ChangeConstraint
    | GuardrailConstraint
    | ToolCallConstraint
    | MessageConstraint
    | FlowConstraint,
    Field(discriminator="kind"),
]


class Milestone(_Strict):
    """A key event (or, in `minefields`, a forbidden one): constraints at one message index."""

    id: str | None = None
    description: str = ""
    after: list[str] | None = Field(
        default=None, description="Ids that must come no later; default: the previous one."
    )
    constraints: list[Constraint] = Field(min_length=1)
    guardrail_tables: list[str] | None = Field(
        default=None,
        description="Tables that may get implicit guardrails (default: all; [] turns them off).",
    )
    guardrail_exclude: list[str] = Field(
        default_factory=list, description="Tables that get no implicit guardrail."
    )

    @field_validator("id", mode="before")
    @classmethod
    def _id_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @field_validator("after", mode="before")
    @classmethod
    def _after_text(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [str(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in value]
        return value


def milestone_ids(milestones: list[Milestone]) -> list[str]:
    """Each milestone's id: its own, or its position as text."""
    return [m.id if m.id is not None else str(i) for i, m in enumerate(milestones)]


def milestone_edges(milestones: list[Milestone]) -> list[tuple[int, int]]:
    """DAG edges (a, b): milestone a must map no later than b."""
    position = {name: i for i, name in enumerate(milestone_ids(milestones))}
    edges = []
    for i, milestone in enumerate(milestones):
        if milestone.after is None:
            if i > 0:
                edges.append((i - 1, i))
        else:
            edges.extend((position[name], i) for name in milestone.after)
    return edges


def milestone_references(milestone: Milestone) -> list[str]:
    """The milestone ids this milestone's constraints refer to (`start` left out), in order."""
    names: list[str] = []
    for constraint in milestone.constraints:
        if isinstance(constraint, ChangeConstraint):
            names.append(constraint.reference)
        elif isinstance(constraint, GuardrailConstraint):
            names.extend(constraint.references())
        elif isinstance(constraint, FlowConstraint) and constraint.from_ is not None:
            names.append(constraint.from_)
    return [name for name in dict.fromkeys(names) if name != START]


def checked_tables(milestone: Milestone) -> set[str]:
    """Tables the milestone checks itself (guardrails do not count)."""
    return {
        c.table for c in milestone.constraints if isinstance(c, StateConstraint | ChangeConstraint)
    }
