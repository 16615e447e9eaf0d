"""API-only tools: a tool known by its JSON Schema alone, whose call is recorded, not run.

Some benchmarks document APIs without implementing them (AutoDE's 66 device and app APIs):
what is measured is the call an assistant makes, never what the call would do. Such a tool
is declared by its OpenAI function schema (`name`, `description`, `parameters`); the schema is
shown to the assistant exactly as given, arguments are checked against it like any tool's
(unknown, missing or mistyped arguments come back as an error result), and a valid call
returns `RECORDED` without touching the world. Whether a call ends the conversation is the
mode's business, not the tool's.

Supported parameter schemas: `type` string, boolean, integer, number, array or object, an
optional `enum` of allowed values, an optional `description`. `required` lists the parameters
that must be given; the others may be left out (they default to absent, never to a value).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from toolplay.tools._decorator import ToolMeta
from toolplay.tools._errors import RegistryError
from toolplay.tools._registry import Registry, ToolSpec
from toolplay.world import World

API_ONLY_DOMAIN = "api-only"
"""The `ToolSpec.domain` of every API-only tool."""

RECORDED: dict[str, Any] = {"status": "recorded"}
"""What a valid call to an API-only tool returns: nothing ran, the call was recorded."""

_TYPES: dict[str, type] = {
    "string": str,
    "boolean": bool,
    "integer": int,
    "number": float,
    "array": list,
    "object": dict,
}


def _record(world: World, **arguments: Any) -> dict[str, Any]:
    """Record the call: the world is left as it is."""
    return dict(RECORDED)


def _is_kind(value: Any, kind: str) -> bool:
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, _TYPES[kind]) and (kind == "boolean") == isinstance(value, bool)


def _annotation(name: str, prop: str, schema: Any) -> Any:
    if not isinstance(schema, Mapping):
        raise RegistryError(f"API {name!r}: parameter {prop!r} must be a JSON Schema object")
    kind = schema.get("type")
    if kind not in _TYPES:
        raise RegistryError(
            f"API {name!r}: parameter {prop!r} has type {kind!r}; known: {', '.join(_TYPES)}"
        )
    enum = schema.get("enum")
    if enum is None:
        return _TYPES[kind]
    if not isinstance(enum, list) or not enum:
        raise RegistryError(f"API {name!r}: parameter {prop!r}: enum must be a non-empty list")
    wrong = [v for v in enum if not _is_kind(v, kind)]
    if wrong:
        raise RegistryError(f"API {name!r}: parameter {prop!r}: enum values {wrong} are not {kind}")
    return Literal[tuple(enum)]


def api_only_tool(schema: Mapping[str, Any]) -> ToolSpec:
    """The registry entry of an API-only tool declared by an OpenAI function schema.

    Args:
        schema: `{"name", "description", "parameters": {"type": "object", "properties",
            "required"}}`, or the same wrapped as `{"type": "function", "function": {...}}`.

    Raises:
        RegistryError: The schema is not usable (naming the API and the problem).
    """
    function = schema.get("function") if schema.get("type") == "function" else schema
    if not isinstance(function, Mapping):
        raise RegistryError("an API-only tool needs a function schema object")
    name = function.get("name")
    if not isinstance(name, str) or not name.isidentifier():
        raise RegistryError(f"API-only tool: name {name!r} is not an identifier")
    if not isinstance(function.get("description", ""), str):
        raise RegistryError(f"API {name!r}: description must be text")
    parameters = function.get("parameters", {"type": "object", "properties": {}})
    if not isinstance(parameters, Mapping) or parameters.get("type", "object") != "object":
        raise RegistryError(f"API {name!r}: parameters must be a JSON Schema of type object")
    properties = parameters.get("properties", {})
    required = parameters.get("required", [])
    if not isinstance(properties, Mapping) or not isinstance(required, list):
        raise RegistryError(f"API {name!r}: properties must be a mapping, required a list")
    unknown = [r for r in required if r not in properties]
    if unknown:
        raise RegistryError(f"API {name!r}: required parameter(s) {unknown} are not declared")
    fields: dict[str, Any] = {}
    for prop, sub in properties.items():
        annotation = _annotation(name, str(prop), sub)
        description = sub.get("description") if isinstance(sub, Mapping) else None
        if prop in required:
            fields[str(prop)] = (annotation, Field(..., description=description))
        else:
            fields[str(prop)] = (annotation | None, Field(None, description=description))
    config = ConfigDict(extra="forbid", strict=True)
    model: type[BaseModel] = create_model(f"{name}_arguments", __config__=config, **fields)
    meta = ToolMeta("action", frozenset(), frozenset(), False, name)
    shown = {"type": "function", "function": json.loads(json.dumps(function))}
    return ToolSpec(name, _record, meta, API_ONLY_DOMAIN, model, shown)


def is_api_only(spec: ToolSpec) -> bool:
    """Whether a registry entry is an API-only tool (its calls are recorded, not run)."""
    return spec.domain == API_ONLY_DOMAIN


def with_api_tools(registry: Registry, schemas: Iterable[Mapping[str, Any]]) -> Registry:
    """`registry` plus the API-only tools of `schemas`, in order.

    Raises:
        RegistryError: A schema is unusable, or names a tool the registry already has.
    """
    tools = dict(registry.tools)
    for schema in schemas:
        spec = api_only_tool(schema)
        if spec.name in tools:
            raise RegistryError(f"tool {spec.name!r} registered twice")
        tools[spec.name] = spec
    return Registry(tools, registry.tables, registry.domains)
