"""AutoDE user scripts: a compact file format and its loader (→ `Scenario`, `evaluation: slots`).

A user script (Mu et al., 2024) describes one user: a character, a background, a purpose, the
API call that fulfils it (the *label*: one function and its slot values) and a fixed first
query. Here a script also lists the follow-up facts the user gives when the assistant asks,
each paired with the reference question an assistant would ask (`ask`), so the same script
drives every way of playing it:

- the scripted user opens with `query`, then answers each assistant text turn with the next
  `say` (deterministic);
- a model-driven user gets the script as its goal (character, background, purpose) and
  knowledge boundary (the query and the `say` facts; what it does not know), and opens with
  the same `query`;
- static mode (AutoDE's) shows the assistant the reference dialogue `query, ask1, say1, ...`
  ending on the last user turn, and forces a tool call;
- the oracle plays `steps` (lookups an assistant needs first, such as the contact id a change
  needs) and then the label call.

File format (YAML), one file per group of scripts::

    world:                       # optional; shared by the file's scripts
      clock: 2024-05-10T09:30:00-07:00
      tables: {contacts: [...]}  # rows; domains are always the whole sandbox world
    scripts:
      - id: add_contact_plumber  # the scenario id is `autode_<id>`
        character: Dana, a homeowner
        background: Her sink leaks; a neighbour recommended a plumber.
        purpose: Save the plumber's number.
        label: {add_contact: {name: Luis Ortega, phone_number: "+14085550177"}}
        accept: {phone_number: ["408-555-0177"]}   # optional: other values counted correct
        steps: [{search_contacts: {name: Luis}}]    # optional: the oracle's lookups first
        query: Add my plumber Luis Ortega to my contacts.
        follow_ups:
          - {ask: "What is his phone number?", say: "It's +14085550177."}
        unknown: [his email address]               # optional: more things the user lacks
        reply: I saved Luis Ortega.                # optional closing reply of the reference
        world: {tables: {...}, clock: ...}         # optional: per-table override of the file's

Categories: `single_user_turn` or `multiple_user_turn` (does the assistant have to ask?),
`single_tool_call` or `multiple_tool_call` (are lookups needed first?), and the label tool's
domain (`contacts`, `reminders`, ...). The label, accepted alternatives and the script's
persona are kept in `metadata` (`label`, `autode`) for the slot scorer and reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._lazy import lazy_folder
from toolplay.scenarios._legacy import rename_setter_slots
from toolplay.scenarios._load import SCENARIO_SUFFIXES, parse_scenario
from toolplay.scenarios._model import Scenario
from toolplay.scenarios._suites import DATA, Suite
from toolplay.tools import Registry

SCRIPT_SUFFIXES = (".yaml", ".yml")
SANDBOX = ("sandbox",)
"""Scripts play in the whole sandbox world: every sandbox tool is offered."""
ID_PREFIX = "autode_"
DEFAULT_CLOCK = "2024-05-10T09:30:00-07:00"
"""Friday 10 May 2024, 09:30 in California (POSIX 1715358600), as in the sandbox suite."""
DEFAULT_REPLY = "Done."

UNKNOWN_SLOTS = {
    "person_id": "the contact's internal id in the app",
    "reminder_id": "the reminder's internal id in the app",
    "message_id": "the message's internal id in the app",
    "latitude": "latitude and longitude numbers",
    "timestamp": "POSIX timestamps (seconds since 1970)",
}
"""What a user does not know, by (part of a) slot name, unless the script states the value."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FollowUp(_Strict):
    """One clarification exchange: the reference question and the user's answer."""

    ask: str = Field(min_length=1, description="What a reference assistant asks.")
    say: str = Field(min_length=1, description="The user's answer (a fact from the script).")


class WorldPatch(_Strict):
    """World settings of a file or a script: a frozen clock and table rows."""

    clock: datetime | None = None
    tables: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    seed: int | None = None


def _one_call(value: dict[str, Any], what: str) -> dict[str, Any]:
    if len(value) != 1:
        raise ValueError(f"{what} must name exactly one function, got {sorted(value)}")
    name, arguments = next(iter(value.items()))
    if not isinstance(arguments, dict):
        raise ValueError(f"{what}: the slots of {name!r} must be a mapping")
    return value


class UserScript(_Strict):
    """One AutoDE user script."""

    id: str = Field(pattern=r"^[A-Za-z0-9_.\-]+$")
    character: str = Field(min_length=1)
    background: str = Field(min_length=1)
    purpose: str = Field(min_length=1)
    label: dict[str, dict[str, Any]]
    accept: dict[str, list[Any]] = Field(default_factory=dict)
    steps: list[dict[str, dict[str, Any]]] = Field(default_factory=list)
    query: str = Field(min_length=1)
    follow_ups: list[FollowUp] = Field(default_factory=list)
    unknown: list[str] = Field(default_factory=list)
    reply: str | None = None
    world: WorldPatch | None = None
    max_turns: int | None = Field(default=None, ge=1)

    @model_validator(mode="before")
    @classmethod
    def _legacy_setter_slots(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        label = data.get("label")
        data["label"] = rename_setter_slots(label)
        if isinstance(data.get("steps"), list):
            data["steps"] = [rename_setter_slots(step) for step in data["steps"]]
        if label != data["label"] and isinstance(data.get("accept"), dict):
            data["accept"] = rename_setter_slots({next(iter(label)): data["accept"]})
            data["accept"] = next(iter(data["accept"].values()))
        return data

    @field_validator("label")
    @classmethod
    def _label(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return _one_call(value, "label")

    @field_validator("steps")
    @classmethod
    def _steps(cls, value: list[dict[str, dict[str, Any]]]) -> list[dict[str, dict[str, Any]]]:
        return [_one_call(step, f"steps[{i}]") for i, step in enumerate(value)]

    @property
    def function(self) -> str:
        """The label's function name."""
        return next(iter(self.label))

    @property
    def slots(self) -> dict[str, Any]:
        """The label's slot values."""
        return self.label[self.function]


class ScriptFile(_Strict):
    """A file of user scripts sharing one world."""

    world: WorldPatch = Field(default_factory=WorldPatch)
    scripts: list[UserScript] = Field(min_length=1)


def user_goal(script: UserScript) -> str:
    """The model-driven user's goal: who it is, why it talks to the assistant, what it wants."""
    return (
        f"Play this person: {script.character}.\n"
        f"Background: {script.background}\n"
        f"What you want from the assistant: {script.purpose}\n"
        "You have already sent your first message; answer the assistant's questions until it "
        "has done what you want."
    )


def user_knowledge(script: UserScript) -> str:
    """The model-driven user's knowledge boundary: what it may say and what it does not know."""
    lines = [f'Your first message was: "{script.query}"']
    if script.follow_ups:
        lines.append(
            "Facts you give only when the assistant asks for them, one at a time (the question "
            "it might ask, then your answer); keep names, numbers and quoted text exactly as "
            "written here:"
        )
        lines += [f'- "{f.ask}" -> {f.say}' for f in script.follow_ups]
    else:
        lines.append("Your first message already holds everything you know about the request.")
    stated = " ".join([script.query, *(f.say for f in script.follow_ups)])
    unknown = list(script.unknown)
    for slot, value in script.slots.items():
        if str(value) in stated:
            continue
        for key, text in UNKNOWN_SLOTS.items():
            if key in slot and text not in unknown:
                unknown.append(text)
    if unknown:
        lines.append("You do not know: " + "; ".join(unknown) + ".")
    lines.append("You know nothing else about this request: if asked, say you don't know.")
    return "\n".join(lines)


def _categories(script: UserScript) -> list[str]:
    """Behaviour categories only: the tool's domain is the scenario's `domain`."""
    turns = "multiple_user_turn" if script.follow_ups else "single_user_turn"
    calls = "multiple_tool_call" if script.steps else "single_tool_call"
    return [turns, calls]


def _world(base: WorldPatch, own: WorldPatch | None) -> dict[str, Any]:
    tables = dict(base.tables)
    clock = base.clock
    seed = base.seed
    if own is not None:
        tables.update(own.tables)
        clock = own.clock or clock
        seed = own.seed if own.seed is not None else seed
    world: dict[str, Any] = {"domains": list(SANDBOX), "tables": tables}
    world["clock"] = clock if clock is not None else DEFAULT_CLOCK
    if seed is not None:
        world["seed"] = seed
    return world


def script_scenario(
    script: UserScript, base: WorldPatch, source: str, prefix: str, context: LoadContext
) -> Scenario:
    """The scenario a user script plays as (see the module docstring).

    Raises:
        ScenarioError: A function or slot the script names does not exist, or the world is
            invalid.
    """
    registry = context.tools.registry(SANDBOX)
    _check_slots(script, registry, source, prefix)
    says = [f.say for f in script.follow_ups]
    utterances = [script.query, *says]
    reference: list[dict[str, Any]] = [
        {"user": utterances[i], "reply": f.ask} for i, f in enumerate(script.follow_ups)
    ]
    calls = [{"name": n, "arguments": a} for step in script.steps for n, a in step.items()]
    calls.append({"name": script.function, "arguments": script.slots})
    reference.append(
        {"user": utterances[-1], "calls": calls, "reply": script.reply or DEFAULT_REPLY}
    )
    data: dict[str, Any] = {
        "id": ID_PREFIX + script.id,
        "description": script.purpose,
        "categories": _categories(script),
        "domain": registry.tools[script.function].domain,
        "world": _world(base, script.world),
        "user": {
            "script": utterances,
            "goal": user_goal(script),
            "knowledge": user_knowledge(script),
        },
        "reference": reference,
        "evaluation": "slots",
        "metadata": {
            "label": {
                "name": script.function,
                "arguments": script.slots,
                "accept": script.accept,
                "cleaning": "json",  # sandbox tools take numbers; AutoDE's APIs do not
            },
            "autode": {
                "character": script.character,
                "background": script.background,
                "purpose": script.purpose,
                "query": script.query,
            },
        },
    }
    if script.max_turns is not None:
        data["max_turns"] = script.max_turns
    return parse_scenario(data, source, context, prefix)


def _check_slots(script: UserScript, registry: Registry, source: str, prefix: str) -> None:
    for field, (name, slots) in [
        ("label", (script.function, script.slots)),
        *[(f"steps[{i}]", next(iter(s.items()))) for i, s in enumerate(script.steps)],
    ]:
        if name not in registry:
            raise ScenarioError(source, f"{prefix}{field}", f"unknown function {name!r}")
        known = set(registry.tools[name].arguments.model_fields)
        extra = sorted(set(slots) - known)
        if extra:
            raise ScenarioError(
                source,
                f"{prefix}{field}.{name}",
                f"unknown slot(s) {extra}; {name} takes {sorted(known)}",
            )
    stray = sorted(set(script.accept) - set(script.slots))
    if stray:
        raise ScenarioError(source, f"{prefix}accept", f"slot(s) {stray} are not in the label")


def _field_path(loc: tuple[int | str, ...]) -> str | None:
    """`("scripts", 1, "label")` → `scripts[1].label`, as the loader's own messages write it."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.lstrip(".") or None


def load_script_file(path: Path, context: LoadContext) -> list[Scenario]:
    """The scenarios of one user-script file.

    Raises:
        ScenarioError: The file is unreadable or invalid (naming file, field and reason).
    """
    import yaml  # noqa: PLC0415 (start-up time: imported on first use)

    source = str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(source, None, f"cannot read file ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError(source, None, "file is not UTF-8 text") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ScenarioError(source, None, f"invalid YAML{where}: {exc}") from exc
    try:
        parsed = ScriptFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = _field_path(first["loc"])
        more = f" (and {len(exc.errors()) - 1} more problem(s))" if len(exc.errors()) > 1 else ""
        raise ScenarioError(source, field, first["msg"] + more) from exc
    return [
        script_scenario(script, parsed.world, source, f"scripts[{i}].", context)
        for i, script in enumerate(parsed.scripts)
    ]


def load_user_scripts(path: Path, context: LoadContext) -> list[Scenario]:
    """Every script of a file or of a folder's `*.yaml` files (recursively, sorted by path).

    Raises:
        ScenarioError: A file is invalid, two scripts share an id, or nothing was found.
    """
    if not path.exists():
        raise ScenarioError(str(path), None, "no such file or folder")
    files = (
        sorted(p for p in path.rglob("*") if p.suffix in SCRIPT_SUFFIXES)
        if path.is_dir()
        else [path]
    )
    scenarios: list[Scenario] = []
    seen: dict[str, str] = {}
    for file in files:
        for scenario in load_script_file(file, context):
            if scenario.id in seen:
                raise ScenarioError(
                    str(file), "id", f"duplicate id {scenario.id!r} (also in {seen[scenario.id]})"
                )
            seen[scenario.id] = str(file)
            scenarios.append(scenario)
    if not scenarios:
        raise ScenarioError(str(path), None, "no user scripts found")
    return scenarios


AUTODE_DESCRIPTION = (
    "AutoDE-style user scripts over the sandbox tools, scored by slot precision/recall/F1."
)


def autode_suite(context: LoadContext, path: Path | None = None) -> Suite:
    """The built-in `autode` suite (`path` None), or a suite of the user scripts at `path`.

    Its default mode is dynamic; `--mode static` plays AutoDE's static variant.
    """
    folder = path if path is not None else DATA / "autode"
    name = "autode" if path is None else f"autode:{path}"
    scripts: Sequence[Scenario] = (
        load_user_scripts(folder, context)
        if path is not None
        else lazy_folder(folder, lambda: load_user_scripts(folder, context), SCENARIO_SUFFIXES)
    )
    return Suite(
        name,
        scripts,
        AUTODE_DESCRIPTION,
        str(folder),
        "dynamic",
        modes={"static": "autode-static"},
    )
