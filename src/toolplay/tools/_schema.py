"""Derive a tool's argument model and OpenAI `tools` JSON Schema from its signature.

Types come from the type hints (through pydantic), descriptions from the Google-style
docstring (through docstring-parser). The first parameter, `world`, is injected by the
runtime and is not part of the schema.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

import docstring_parser
from pydantic import BaseModel, ConfigDict, Field, create_model

from toolplay.tools._errors import RegistryError

INJECTED = ("world",)


def argument_model(function: Callable[..., Any], name: str) -> tuple[type[BaseModel], str]:
    """Build the strict pydantic model of a tool's arguments and its description."""
    doc = docstring_parser.parse(inspect.getdoc(function) or "")
    description = "\n\n".join(p for p in (doc.short_description, doc.long_description) if p)
    if not description:
        raise RegistryError(f"tool {name!r} has no docstring description")
    param_docs = {p.arg_name: (p.description or "").strip() for p in doc.params}
    hints = typing.get_type_hints(function, include_extras=True)
    fields: dict[str, Any] = {}
    for pname, param in inspect.signature(function).parameters.items():
        if pname in INJECTED:
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise RegistryError(f"tool {name!r}: *args/**kwargs are not allowed")
        if pname not in hints:
            raise RegistryError(f"tool {name!r}: parameter {pname!r} has no type hint")
        if not param_docs.get(pname):
            raise RegistryError(f"tool {name!r}: parameter {pname!r} has no description")
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (hints[pname], Field(default, description=param_docs[pname]))
    config = ConfigDict(extra="forbid", strict=True)
    model = create_model(f"{name}_arguments", __config__=config, **fields)
    return model, description


def openai_schema(name: str, description: str, model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAI `tools` entry for a tool: flat JSON Schema, no titles, no $refs."""
    raw = model.model_json_schema()
    defs = raw.pop("$defs", {})
    params = _clean(raw, defs)
    params.setdefault("properties", {})
    params["required"] = [p for p in params["properties"] if p in raw.get("required", [])]
    params["additionalProperties"] = False
    params.pop("description", None)
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": params},
    }


def _clean(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_clean(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return _clean(merged, defs)
    options = node.get("anyOf")
    if isinstance(options, list):
        non_null = [o for o in options if o != {"type": "null"}]
        if len(non_null) == 1 and len(non_null) < len(options):
            rest = {k: v for k, v in node.items() if k != "anyOf"}
            return _clean({**non_null[0], **rest}, defs)
    cleaned: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict):
            cleaned[key] = {prop: _clean(sub, defs) for prop, sub in value.items()}
        elif key != "title":
            cleaned[key] = _clean(value, defs)
    if cleaned.get("default", 0) is None:
        del cleaned["default"]
    return cleaned
