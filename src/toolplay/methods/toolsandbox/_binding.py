"""The reference's argument binding: what it refuses before a tool runs, and in which words.

Every reference tool is wrapped so that its arguments are bound to its signature (Python's
`inspect.Signature.bind`): the first missing required parameter in signature order is reported,
else the first unexpected argument in the order given; most tools are also `@typechecked`
(`validators.validate_type` on every argument given, in signature order): a value must be of
one of its annotation's types, an int is accepted for a float, a bool for an int or a float,
and null only where the annotation is Optional. This module replays those checks from the
exported parameter facts (`_shown`), so a call toolplay's own validation would accept
(e.g. null for an optional argument, which toolplay reads as "not given") is refused as the
reference refuses it. `search_contacts` checks nothing: the values reach `phonenumbers` (the
phone number, null included) and rapidfuzz (name and relationship), whose own exceptions the
model reads; they are produced here by the same libraries.

What this does not replay is listed in README.md ("What the model is shown").
"""

from __future__ import annotations

import json
from typing import Any

import phonenumbers
from rapidfuzz import utils

from toolplay.messages import ToolCall
from toolplay.methods.toolsandbox._shown import ReferenceData, ToolFacts
from toolplay.tools import EXCEPTION, ToolOutcome, exception_line

NOT_GIVEN = "tool_sandbox.common.utils.NotGiven"
_TYPES: dict[str, type | str] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "NoneType": type(None),
    NOT_GIVEN: NOT_GIVEN,  # a sentinel no JSON value is
}


def accepted_types(annotation: str) -> frozenset[type | str]:
    """The types an annotation's `str()` names, e.g. `typing.Optional[float]` -> float, None.

    Raises:
        ValueError: for an annotation the exported tools do not use.
    """
    text = annotation
    extra: list[str] = []
    if text.startswith("typing.Optional[") and text.endswith("]"):
        text, extra = text[len("typing.Optional[") : -1], ["NoneType"]
    if text.startswith("typing.Union[") and text.endswith("]"):
        parts = text[len("typing.Union[") : -1].split(", ")
    else:
        parts = [text]
    names = [p[len("<class '") : -2] if p.startswith("<class '") else p for p in parts + extra]
    unknown = [n for n in names if n not in _TYPES]
    if unknown:
        raise ValueError(f"unknown annotation {annotation!r} ({unknown})")
    return frozenset(_TYPES[n] for n in names)


def type_accepted(value: Any, annotation: str) -> bool:
    """Whether the reference's `validate_type` accepts `value` for `annotation`."""
    types = accepted_types(annotation)
    if type(value) in types:
        return True
    if isinstance(value, int) and float in types:  # bool included: a bool is an int
        return True
    return isinstance(value, bool) and int in types


def _refusal(tool: str, message: str, code: str, fields: dict[str, str]) -> ToolOutcome:
    return ToolOutcome(
        error=f"{tool}: {message}", error_type="invalid_arguments", code=code, fields=fields
    )


def check_call(data: ReferenceData, real: str, call: ToolCall) -> ToolOutcome | None:
    """The reference's refusal of `call` to tool `real` before it runs, or None (module
    docstring). Argument text that is not a JSON object is left to toolplay's own checks.
    """
    facts = data.tools.get(real)
    if facts is None:
        return None
    try:
        given = json.loads(call.arguments)
    except (ValueError, RecursionError):
        return None
    if not isinstance(given, dict):
        return None
    return _bind(real, facts, given) or _library(real, given)


def _bind(real: str, facts: ToolFacts, given: dict[str, Any]) -> ToolOutcome | None:
    for p in facts.parameters:
        if p.required and p.name not in given:
            return _refusal(
                real,
                f"missing required argument {p.name!r}.",
                "missing_argument",
                {"param": p.name, "param_repr": repr(p.name)},
            )
    names = {p.name for p in facts.parameters}
    for key in given:
        if key not in names:
            return _refusal(
                real,
                f"unexpected argument {key!r} (allowed: {', '.join(sorted(names)) or 'none'}).",
                "unexpected_argument",
                {"param": key, "param_repr": repr(key)},
            )
    if not facts.typechecked:
        return None
    for p in facts.parameters:
        if p.name in given and not type_accepted(given[p.name], p.annotation):
            value_type = str(type(given[p.name]))
            return _refusal(
                real,
                f"argument {p.name!r} must be {p.annotation}, got {value_type}.",
                "wrong_type",
                {"param": p.name, "param_repr": repr(p.name), "value_type": value_type},
            )
    return None


def _library(real: str, given: dict[str, Any]) -> ToolOutcome | None:
    """`search_contacts` hands its values to libraries unchecked (module docstring)."""
    if real != "search_contacts":
        return None
    checks: list[tuple[str, Any]] = []
    if "phone_number" in given and not isinstance(given["phone_number"], str):
        checks.append(("phone_number", phonenumbers.parse))
    for key in ("name", "relationship"):
        if given.get(key) is not None and not isinstance(given[key], str):
            checks.append((key, utils.default_process))
    for key, library in checks:
        try:
            library(given[key])
        except Exception as exc:  # the library's own exception is the reference's text
            line = exception_line(exc)
            return _refusal(real, f"argument {key!r}: {line}", EXCEPTION, {"line": line})
    return None
