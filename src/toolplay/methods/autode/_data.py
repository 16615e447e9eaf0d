"""Importer of the official AutoDE benchmark (Mu et al., 2024): `autode-data:DIR`.

DIR is an AutoDE checkout: `datasets/data_v1_2.jsonl` (276 dialogues, one JSON object a line:
`uuid`, `background`, `content`, `api`, `slots`) and `API_list.xlsx` (sheet `API list_2`, one
API a row: `domain, subdomain, function, api, description, parameters`).

APIs. Each row becomes the OpenAI function the reference builds from it: every parameter a
string, except `estimateTime`/`estimateDistance` (boolean); an `enum` for `deviceType` and
`ticketType`; the `(required slot)` / `(optional slot)` markers cut from the parameter
descriptions; and, when optional slots exist, the API description followed by the sentence
saying that a call must contain at least one of them. Which parameters are `required`:

- `required=all` (default): every parameter, as in the reference's runs (its parser tests an
  always-true condition, so the schemas its models saw list every parameter as required);
- `required=marked`: only those marked `(required slot)`, as the sheet intends
  (`autode-data:DIR?required=marked`).

The APIs have no implementation: each scenario declares its gold API as an API-only tool
(`tools.api_only`), offers only that one, and a call to it is recorded, never run.

Scenarios. One per line, id = the dialogue's uuid: the user script (`background`) is the
simulated user's goal and `API: ...` / `Parameters: ...` (the gold call, as AutoDE's user agent
sees it) its knowledge; the scripted user says the `content`'s user turns in order (its first is
the fixed first query); the reference solution is the `content` dialogue followed by the gold
call; `metadata.label` is scored by AutoDE's rules (any call name, only booleans and strings
kept). The suite is played under AutoDE's protocol: `--mode dynamic` (the default) and
`--mode static` mean the catalog modes `autode-protocol` and `autode-protocol-static`
(`toolplay.methods.autode._protocol`). Categories: the API's domain and whether the static
dialogue has one or several user turns.

Anything malformed is refused naming the file, the line (or sheet row) and the reason: bad
JSON, a missing or mistyped field, a dialogue that does not alternate User/Assistant from a
User turn to a User turn, an unknown API, a slot the API does not have or a value of the wrong
type, a duplicate uuid.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from toolplay.methods.autode._paper import paper_departures
from toolplay.methods.autode._presentation import PRESENTATION
from toolplay.methods.autode._reference import reference_texts
from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._load import parse_scenario
from toolplay.scenarios._model import Scenario
from toolplay.scenarios._suites import Suite

DATA_FILE = Path("datasets") / "data_v1_2.jsonl"
API_FILE = Path("API_list.xlsx")
PROMPTS = Path("prompts")
COLUMNS = ("domain", "subdomain", "function", "api", "description", "parameters")
_TEXTS = reference_texts()
API_SHEET = _TEXTS.api_sheet
"""The sheet the reference reads (its texts are data: `_reference`)."""

RequiredRule = Literal["all", "marked"]
REQUIRED_RULES: tuple[RequiredRule, ...] = ("all", "marked")

PROTOCOL_MODES = {"dynamic": "autode-protocol", "static": "autode-protocol-static"}
"""How the suite is played: `--mode dynamic` (the default) and `--mode static` are AutoDE's
protocol (`toolplay.methods.autode._protocol`)."""

DESCRIPTION = (
    "The official AutoDE benchmark: 276 dialogues over 66 documented APIs, played under "
    "AutoDE's protocol and scored by its slot precision/recall/F1."
)


@dataclass(frozen=True)
class Api:
    """One API of the sheet: its OpenAI function schema and where it sits."""

    name: str
    domain: str
    function: dict[str, Any]
    row: int

    @property
    def parameters(self) -> Mapping[str, Any]:
        """The parameter schemas by name."""
        return dict(self.function["parameters"]["properties"])


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def _parameter_lines(text: str, where: str, source: str) -> list[tuple[str, str]]:
    pairs = []
    for line in text.strip().split("\n"):
        parts = line.strip().split(": ")
        if len(parts) != 2 or not parts[0]:
            raise ScenarioError(
                source, where, f"parameter line {line.strip()!r} is not 'name: description'"
            )
        pairs.append((parts[0], parts[1]))
    return pairs


def api_function(
    name: str, description: str, parameters: str, *, required: RequiredRule, where: str, source: str
) -> dict[str, Any]:
    """The OpenAI function the reference builds from one sheet row (see the module docstring)."""
    properties: dict[str, Any] = {}
    needed: list[str] = []
    any_of: list[str] = []
    for key, text in _parameter_lines(parameters, where, source) if parameters.strip() else []:
        if key in properties:
            raise ScenarioError(source, where, f"parameter {key!r} is listed twice")
        marked = _TEXTS.required_mark in text
        text = text.replace(_TEXTS.required_mark, "").strip()
        if required == "all" or marked:
            needed.append(key)
        if _TEXTS.optional_mark in text:
            text = text.replace(_TEXTS.optional_mark, "").strip()
            any_of.append(key)
        item: dict[str, Any] = {
            "type": _TEXTS.parameter_types.get(key, "string"),
            "description": text,
        }
        if key in _TEXTS.enums:
            item["enum"] = list(_TEXTS.enums[key])
        properties[key] = item
    if any_of:
        sentence = _TEXTS.optional_slots_sentence + _TEXTS.optional_slots_separator.join(any_of)
        description = description.rstrip(".") + sentence
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": properties, "required": needed},
    }


def load_api_list(path: Path, required: RequiredRule = "all") -> dict[str, Api]:
    """The APIs of `API_list.xlsx` (sheet `API list_2`) by name.

    Raises:
        ScenarioError: The file is unreadable, the sheet or a column is missing, a row is
            malformed or an API is listed twice (naming the sheet row).
    """
    from openpyxl import load_workbook  # only this importer reads spreadsheets

    source = str(path)
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except FileNotFoundError as exc:
        raise ScenarioError(source, None, "no such file (expected the AutoDE API list)") from exc
    except Exception as exc:  # openpyxl raises zipfile/XML/KeyError kinds for a bad file
        raise ScenarioError(source, None, f"not a readable .xlsx workbook ({exc})") from exc
    try:
        if API_SHEET not in book.sheetnames:
            raise ScenarioError(source, None, f"no sheet {API_SHEET!r}; sheets: {book.sheetnames}")
        rows = list(book[API_SHEET].iter_rows(values_only=True))
    finally:
        book.close()
    if not rows:
        raise ScenarioError(source, f"sheet {API_SHEET!r}", "the sheet is empty")
    header = [_cell(c).strip() for c in rows[0]]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise ScenarioError(source, f"sheet {API_SHEET!r} row 1", f"missing column(s) {missing}")
    at = {c: header.index(c) for c in COLUMNS}
    apis: dict[str, Api] = {}
    for number, row in enumerate(rows[1:], start=2):
        cells = {c: _cell(row[i]) if i < len(row) else "" for c, i in at.items()}
        name = cells["api"].strip()
        if not name:  # the reference skips rows without an API name
            continue
        where = f"sheet {API_SHEET!r} row {number} ({name})"
        if not name.isidentifier():
            raise ScenarioError(source, where, f"API name {name!r} is not an identifier")
        if name in apis:
            raise ScenarioError(source, where, f"API {name!r} also in row {apis[name].row}")
        function = api_function(
            name,
            cells["description"],
            cells["parameters"],
            required=required,
            where=where,
            source=source,
        )
        apis[name] = Api(name, cells["domain"].strip(), function, number)
    if not apis:
        raise ScenarioError(source, f"sheet {API_SHEET!r}", "no API rows")
    return apis


class _Turn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    role: Literal["User", "Assistant"]
    message: str


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    uuid: str = Field(pattern=r"^[A-Za-z0-9_.\-]+$")
    background: str
    content: list[_Turn] = Field(min_length=1)
    api: str
    slots: dict[str, str | bool]


def _check_record(record: _Record, apis: Mapping[str, Api]) -> str | None:
    """Why a parsed line cannot be used, or None."""
    roles = [t.role for t in record.content]
    expected = ["User" if i % 2 == 0 else "Assistant" for i in range(len(roles))]
    if roles != expected or roles[-1] != "User":
        return f"content must alternate User/Assistant from a User turn to a User turn, got {roles}"
    api = apis.get(record.api)
    if api is None:
        return f"unknown API {record.api!r} (not in {API_FILE} sheet {API_SHEET!r})"
    parameters = api.parameters
    for slot, value in record.slots.items():
        if slot not in parameters:
            return (
                f"slot {slot!r} is not a parameter of {record.api}; it takes {sorted(parameters)}"
            )
        kind = parameters[slot]["type"]
        if (kind == "boolean") != isinstance(value, bool):
            return f"slot {slot!r} of {record.api} must be a {kind}, got {value!r}"
        allowed = parameters[slot].get("enum")
        if allowed is not None and value not in allowed:
            return f"slot {slot!r} of {record.api} is {value!r}; allowed: {allowed}"
    return None


def _purpose(background: str) -> str:
    for line in background.splitlines():
        if line.startswith("Purpose:"):
            return line.removeprefix("Purpose:").strip()
    return background.strip().splitlines()[0] if background.strip() else ""


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "other"


def user_knowledge(api: str, slots: Mapping[str, Any]) -> str:
    """What AutoDE's user agent is told besides the script: the API and the gold slots (the
    reference's labels, without the line break that joins them to the script).
    """
    slots_text = json.dumps(dict(slots), ensure_ascii=False)
    before_api = _TEXTS.user_briefing_before_api.removeprefix("\n")
    return before_api + api + _TEXTS.user_briefing_before_slots + slots_text


def record_scenario(
    record: _Record,
    api: Api,
    source: str,
    line: int,
    context: LoadContext,
    prompts: Path | None = None,
) -> Scenario:
    """The scenario of one benchmark line (see the module docstring); `prompts`: the
    checkout's prompt folder, where the reference presentation reads its default prompts.
    """
    turns = record.content
    users = [t.message for t in turns if t.role == "User"]
    replies = [t.message for t in turns if t.role == "Assistant"]
    reference: list[dict[str, Any]] = [
        {"user": users[i], "reply": replies[i]} for i in range(len(replies))
    ]
    reference.append(
        {"user": users[-1], "calls": [{"name": api.name, "arguments": dict(record.slots)}]}
    )
    data: dict[str, Any] = {
        "id": record.uuid,
        "description": _purpose(record.background),
        "categories": ["single_user_turn" if len(users) == 1 else "multiple_user_turn"],
        "domain": _slug(api.domain),
        "world": {"domains": []},
        "tools": {"allow": [api.name], "api_only": [api.function]},
        "user": {
            "script": users,
            "goal": record.background.strip(),
            "knowledge": user_knowledge(api.name, record.slots),
        },
        "reference": reference,
        "evaluation": "slots",
        "metadata": {
            "label": {
                "name": api.name,
                "arguments": dict(record.slots),
                "any_name": True,
                "cleaning": "strings",
            },
            "autode": {
                "background": record.background.strip(),
                "file": source,
                "line": line,
                **({"prompts": str(prompts)} if prompts is not None else {}),
            },
        },
    }
    return parse_scenario(data, source, context, f"line {line}: ")


def load_dialogues(
    path: Path, apis: Mapping[str, Api], context: LoadContext, prompts: Path | None = None
) -> list[Scenario]:
    """The scenarios of `data_v1_2.jsonl`, in file order (`prompts`: see `record_scenario`).

    Raises:
        ScenarioError: The file is unreadable or a line is malformed (naming line and reason).
    """
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ScenarioError(source, None, "no such file (expected the AutoDE dialogues)") from exc
    except OSError as exc:
        raise ScenarioError(source, None, f"cannot read file ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError(source, None, "file is not UTF-8 text") from exc
    scenarios: list[Scenario] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            record = _Record.model_validate(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ScenarioError(source, where, f"invalid JSON: {exc.msg}") from exc
        except ValidationError as exc:
            first = exc.errors()[0]
            at = ".".join(str(p) for p in first["loc"]) or "record"
            raise ScenarioError(source, where, f"{at}: {first['msg']}") from exc
        if record.uuid in seen:
            raise ScenarioError(
                source, where, f"duplicate uuid {record.uuid!r} (also line {seen[record.uuid]})"
            )
        problem = _check_record(record, apis)
        if problem is not None:
            raise ScenarioError(source, where, problem)
        seen[record.uuid] = number
        scenarios.append(
            record_scenario(record, apis[record.api], source, number, context, prompts)
        )
    if not scenarios:
        raise ScenarioError(source, None, "no dialogues in the file")
    return scenarios


def parse_spec(argument: str) -> tuple[Path, RequiredRule]:
    """`DIR` or `DIR?required=all|marked` → (folder, required rule).

    Raises:
        ScenarioError: An unknown option or value.
    """
    folder, _, query = argument.partition("?")
    rule: RequiredRule = "all"
    for item in filter(None, query.split("&")):
        key, _, value = item.partition("=")
        if key != "required" or value not in REQUIRED_RULES:
            raise ScenarioError(
                f"autode-data:{argument}",
                None,
                f"unknown option {item!r}; known: required={'|'.join(REQUIRED_RULES)}",
            )
        rule = "marked" if value == "marked" else "all"
    return Path(folder or ".").expanduser(), rule


def import_autode_data(argument: str, context: LoadContext) -> Suite:
    """The suite `autode-data:DIR[?required=all|marked]` (see the module docstring).

    Raises:
        ScenarioError: DIR is not an AutoDE checkout or one of its files is malformed.
    """
    folder, rule = parse_spec(argument)
    if not folder.is_dir():
        raise ScenarioError(str(folder), None, "no such folder (expected an AutoDE checkout)")
    apis = load_api_list(folder / API_FILE, rule)
    scenarios = load_dialogues(folder / DATA_FILE, apis, context, folder / PROMPTS)
    extra: dict[str, object] = {"apis": len(apis), "required": rule}
    return Suite(
        f"autode-data:{argument}",
        scenarios,
        DESCRIPTION,
        str(folder / DATA_FILE),
        default_mode="dynamic",
        modes=dict(PROTOCOL_MODES),
        extra=extra,
        presentation=PRESENTATION,
        paper_setup=paper_departures,
    )
