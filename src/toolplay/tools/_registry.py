"""Tool registries: build schemas once, validate arguments, execute calls atomically.

A registry is an object built by `build_registry(domains)` and passed down; nothing is
global. `execute` turns every way a call can go wrong (unknown name, malformed JSON, missing,
extra or mistyped arguments, no session, a refusal by the tool) into a `ToolOutcome` with a
clear error the assistant reads as the tool result, and leaves the world untouched when the
call fails. Only a genuine bug inside a tool escapes, as `ToolCrash`.

Besides toolplay's message, a failed outcome names its condition (`code`, `fields`; see
`_errors`) so that a presentation with its own error texts can word it: a tool's `ToolError`
gives its own; the checks here give `unknown_tool` (`name`), `not_a_mapping` (`type_name`: the
Python type of the parsed JSON), `EXCEPTION` for argument text that is not JSON (the JSON
parser's exception line), and for invalid arguments the first problem in the order Python's
own call binding reports them: the first missing required parameter in signature order
(`missing_argument`, `param`), else the first unexpected one in the order given
(`unexpected_argument`, `param`), else the first mistyped one in signature order
(`wrong_type`, `param` and `value_type`, `str(type(value))` of the JSON value).
"""

from __future__ import annotations

import copy
import functools
import json
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from toolplay.messages import ErrorType, ToolCall
from toolplay.tools._decorator import ToolKind, ToolMeta, tool_meta
from toolplay.tools._errors import (
    EXCEPTION,
    AuthenticationError,
    RegistryError,
    ToolError,
    exception_line,
)
from toolplay.tools._schema import argument_model, openai_schema
from toolplay.world import TableSchema, World

MAX_ARGUMENT_CHARS = 100_000
"""Argument texts longer than this are refused unparsed (guards against runaway output)."""


class ToolCrash(Exception):
    """A tool raised something other than `ToolError`: a harness bug (infrastructure error)."""


@dataclass(frozen=True)
class ToolSpec:
    """A registered tool: its function, declarations, argument model and OpenAI schema."""

    name: str
    function: Callable[..., Any]
    meta: ToolMeta
    domain: str
    arguments: type[BaseModel]
    schema: dict[str, Any]

    @property
    def kind(self) -> ToolKind:
        """The tool's kind: "action" or "read"."""
        return self.meta.kind

    @property
    def description(self) -> str:
        """The tool description shown to the assistant."""
        return str(self.schema["function"]["description"])


@dataclass(frozen=True)
class Domain:
    """A group of tools around one purpose with the tables they act on."""

    name: str
    tables: Mapping[str, TableSchema]
    tools: Sequence[object]
    """Functions decorated with `@tool`."""
    description: str = ""
    defaults: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)
    """Rows a table starts with when a scenario gives none (e.g. the one settings row)."""
    setup: Callable[[World], None] | None = None
    """Called on every fresh world, e.g. to install a dataset's own id generators."""


@dataclass(frozen=True)
class ToolOutcome:
    """The result of executing one call: a JSON-able result or an error for the assistant."""

    result: Any = None
    error: str | None = None
    error_type: ErrorType | None = None
    executed_arguments: str | None = None
    """The call's arguments as executed, when the executor changed them (`Message`)."""
    code: str | None = None
    """The failed condition, for presentations with their own error texts (module docstring)."""
    fields: Mapping[str, str] = field(default_factory=dict)
    """The values `code`'s text fills in."""

    @property
    def ok(self) -> bool:
        """True when the call succeeded."""
        return self.error is None


@dataclass(frozen=True)
class Registry:
    """The tools a run may offer, by name, with the tables they need."""

    tools: Mapping[str, ToolSpec]
    tables: Mapping[str, TableSchema] = field(default_factory=dict)
    domains: Mapping[str, Domain] = field(default_factory=dict)

    def __contains__(self, name: object) -> bool:
        return name in self.tools

    def __getitem__(self, name: str) -> ToolSpec:
        return self.tools[name]

    def names(self) -> list[str]:
        """Tool names in registration order."""
        return list(self.tools)

    def select(self, allow: Iterable[str] | None = None, deny: Iterable[str] = ()) -> Registry:
        """A registry restricted to `allow` (all if None) minus `deny`; unknown names fail."""
        allow_list = list(self.tools) if allow is None else list(allow)
        unknown = [n for n in [*allow_list, *deny] if n not in self.tools]
        if unknown:
            raise RegistryError(f"unknown tool(s): {', '.join(unknown)}")
        denied = set(deny)
        kept = {n: self.tools[n] for n in allow_list if n not in denied}
        return Registry(kept, self.tables, self.domains)

    def new_world(
        self,
        rows: Mapping[str, Sequence[Mapping[str, Any]]],
        *,
        clock: datetime,
        session: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> World:
        """A fresh world over this registry's tables; tables not in `rows` get domain defaults."""
        initial: dict[str, list[Mapping[str, Any]]] = {}
        for domain in self.domains.values():
            for table, default_rows in domain.defaults.items():
                initial[table] = list(default_rows)
        for table, table_rows in rows.items():
            initial[table] = list(table_rows)
        world = World(self.tables, initial, clock=clock, session=session, seed=seed)
        for domain in self.domains.values():
            if domain.setup is not None:
                domain.setup(world)
        return world

    def schemas(self) -> list[dict[str, Any]]:
        """OpenAI `tools` entries for every tool, in order."""
        return [spec.schema for spec in self.tools.values()]

    def execute(self, world: World, call: ToolCall) -> ToolOutcome:
        """Validate and run `call` against `world`; see the module docstring."""
        spec = self.tools.get(call.name)
        if spec is None:
            known = ", ".join(self.tools) or "none"
            message = f"Unknown tool {call.name!r}. Available tools: {known}."
            return _fail("unknown_tool", message, "unknown_tool", {"name": call.name})
        parsed = parse_arguments(call.arguments)
        if isinstance(parsed, str):
            return _fail("malformed_arguments", f"{call.name}: {parsed}", *_parse_code(call))
        try:
            arguments = spec.arguments.model_validate(parsed)
        except ValidationError as exc:
            message = f"{call.name}: {describe_validation(exc, spec)}"
            return _fail("invalid_arguments", message, *first_problem(exc, spec, parsed))
        if spec.meta.requires_session and not world.session.get("username"):
            return _fail("not_logged_in", f"{call.name}: no user is logged in; log in first.")
        values = {name: getattr(arguments, name) for name in spec.arguments.model_fields}
        try:
            with world.transaction():
                result = to_json_value(spec.function(world, **values))
        except AuthenticationError as exc:
            return _fail("not_logged_in", str(exc), exc.code, exc.fields)
        except ToolError as exc:
            return _fail("tool_error", str(exc), exc.code, exc.fields)
        except Exception as exc:
            detail = "".join(traceback.format_exception(exc))
            raise ToolCrash(f"tool {call.name} crashed: {exc!r}\n{detail}") from exc
        return ToolOutcome(result=result)


def build_registry(domains: Iterable[Domain]) -> Registry:
    """Build a registry from domains; fails on any unusable tool definition."""
    tools: dict[str, ToolSpec] = {}
    tables: dict[str, TableSchema] = {}
    by_name: dict[str, Domain] = {}
    for domain in domains:
        by_name[domain.name] = domain
        for table_name, table in domain.tables.items():
            if table_name in tables and tables[table_name] != table:
                raise RegistryError(f"table {table_name!r} declared differently by two domains")
            tables[table_name] = table
        for function in domain.tools:
            meta = tool_meta(function) if callable(function) else None
            if meta is None or not callable(function):
                raise RegistryError(f"{function!r} is not a function decorated with @tool")
            name = meta.name or str(getattr(function, "__name__", function))
            if name in tools:
                raise RegistryError(f"tool {name!r} registered twice")
            unknown = (meta.reads | meta.writes) - set(domain.tables) - {"session"}
            if unknown:
                raise RegistryError(f"tool {name!r} uses undeclared table(s) {sorted(unknown)}")
            model, schema = _derived(function, name)
            tools[name] = ToolSpec(name, function, meta, domain.name, model, copy.deepcopy(schema))
    return Registry(tools, tables, by_name)


@functools.lru_cache(maxsize=4096)
def _derived(function: Callable[..., Any], name: str) -> tuple[type[BaseModel], dict[str, Any]]:
    """A tool's argument model and schema, derived once per process.

    A suite's scenarios build registries for many sets of domains; each tool's derivation
    (pydantic model and JSON Schema) is the same every time. Callers copy the schema.
    """
    model, description = argument_model(function, name)
    return model, openai_schema(name, description, model)


def parse_arguments(text: str) -> dict[str, Any] | str:
    """Parse argument JSON text into a dict, or return the reason it cannot be used."""
    if len(text) > MAX_ARGUMENT_CHARS:
        return f"arguments are {len(text)} characters long; the limit is {MAX_ARGUMENT_CHARS}."
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except RecursionError:
        return "arguments are nested too deeply to parse."
    except ValueError as exc:
        return f"arguments are not valid JSON ({exc}). Send a JSON object."
    if not isinstance(value, dict):
        return f"arguments must be a JSON object, got {type(value).__name__}."
    return value


_JSON_TYPE = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    list: "array",
    dict: "object",
    type(None): "null",
}


def describe_validation(exc: ValidationError, spec: ToolSpec) -> str:
    """One readable sentence per problem, naming the argument and the expected type."""
    properties = spec.schema["function"]["parameters"].get("properties", {})
    problems = []
    for error in exc.errors():
        loc = ".".join(str(part) for part in error["loc"])
        top = str(error["loc"][0]) if error["loc"] else ""
        if error["type"] == "missing":
            problems.append(f"missing required argument {loc!r}")
        elif error["type"] == "extra_forbidden":
            allowed = ", ".join(properties) or "none"
            problems.append(f"unexpected argument {loc!r} (allowed: {allowed})")
        else:
            expected = _expected(properties.get(top, {}))
            got = _JSON_TYPE.get(type(error.get("input")), type(error.get("input")).__name__)
            problems.append(f"argument {loc!r} must be {expected}, got {got}: {error['msg']}")
    return "; ".join(problems) + "."


def _expected(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    if "type" in schema:
        kind = schema["type"]
        if kind == "array" and "type" in schema.get("items", {}):
            return f"of type array of {schema['items']['type']}"
        return f"of type {kind}"
    if "anyOf" in schema:
        return " or ".join(_expected(option) for option in schema["anyOf"])
    return "a valid value"


def to_json_value(value: Any) -> Any:
    """Normalise a tool's return value to plain JSON data (models dumped, tuples listed)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Mapping):
        return {str(k): to_json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json_value(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"tool returned a value that is not JSON data: {type(value).__name__}")


def first_problem(
    exc: ValidationError, spec: ToolSpec, given: Mapping[str, Any]
) -> tuple[str | None, dict[str, str]]:
    """The code of the first problem in Python's binding order (module docstring)."""
    errors = exc.errors()
    tops = [(e["type"], str(e["loc"][0]) if e["loc"] else "") for e in errors]
    fields = list(spec.arguments.model_fields)
    missing = {name for kind, name in tops if kind == "missing"}
    for name in fields:
        if name in missing:
            return "missing_argument", {"param": name}
    extra = {name for kind, name in tops if kind == "extra_forbidden"}
    for name in given:
        if name in extra:
            return "unexpected_argument", {"param": name}
    wrong = {name for kind, name in tops}
    for name in fields:
        if name in wrong and name in given:
            return "wrong_type", {"param": name, "value_type": str(type(given[name]))}
    return None, {}


def _parse_code(call: ToolCall) -> tuple[str | None, dict[str, str]]:
    """The condition behind an argument text `parse_arguments` refused."""
    if len(call.arguments) > MAX_ARGUMENT_CHARS:
        return None, {}
    try:
        value = json.loads(call.arguments)
    except RecursionError:
        return None, {}
    except ValueError as exc:
        return EXCEPTION, {"line": exception_line(exc)}
    return "not_a_mapping", {"type_name": type(value).__name__}


def _fail(
    error_type: ErrorType,
    message: str,
    code: str | None = None,
    fields: Mapping[str, str] | None = None,
) -> ToolOutcome:
    return ToolOutcome(error=message, error_type=error_type, code=code, fields=dict(fields or {}))
