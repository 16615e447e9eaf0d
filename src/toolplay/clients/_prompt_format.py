"""Tool calling for models without native support: a prompt format plus constrained output.

The tools are described in the system message, and the model must answer with one JSON object:
`{"answer": "..."}` to speak, or `{"tool_calls": [{"name": ..., "arguments": {...}}]}` to act.
`output_schema` turns the offered tools into a JSON Schema (one alternative per tool, its name a
constant and its arguments the tool's own parameter schema) that llama.cpp compiles into a
grammar, so sampling cannot leave the format. Strings and call lists get length caps so that an
answer fits in `max_tokens`; if it is cut anyway, `parse_output` salvages it: a cut answer keeps
its text, and a cut tool call keeps its raw argument text, which the environment then reports to
the model as malformed. Parsing never raises.

Earlier turns are rendered in the same format (the model's own calls as JSON, tool results as a
user message), since small chat templates know only system, user and assistant roles.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

ANSWER_MAX_CHARS = 400
STRING_MAX_CHARS = 80
MAX_CALLS = 3

FORMAT_INSTRUCTIONS = (
    "Reply with one JSON object and nothing else.\n"
    'To call tools: {"tool_calls": [{"name": "<tool name>", "arguments": {<arguments>}}]}\n'
    'To reply to the user: {"answer": "<your reply>"}\n'
    "Call a tool when it can do what the user asked; reply when you need more information "
    "from the user or when the task is done."
)


@dataclass(frozen=True)
class ParsedOutput:
    """What a constrained model said: text for the user, or calls as (name, raw arguments)."""

    content: str | None
    calls: tuple[tuple[str, str], ...] = ()


def _type_text(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " | ".join(_type_text(s) for s in schema["anyOf"] if isinstance(s, dict))
    kind = schema.get("type", "any")
    if kind == "array" and isinstance(schema.get("items"), dict):
        return f"list of {_type_text(schema['items'])}"
    return " | ".join(kind) if isinstance(kind, list) else str(kind)


def describe_tools(tools: Sequence[dict[str, Any]]) -> str:
    """A compact text listing of OpenAI `tools` entries: signature, description, arguments."""
    lines: list[str] = []
    for entry in tools:
        function = entry.get("function", {})
        params = function.get("parameters") or {}
        properties: dict[str, Any] = params.get("properties") or {}
        required = set(params.get("required") or [])
        signature = ", ".join(
            f"{name}{'' if name in required else '?'}: {_type_text(spec)}"
            for name, spec in properties.items()
        )
        description = str(function.get("description") or "").strip().splitlines()
        head = f"- {function.get('name', '?')}({signature})"
        lines.append(f"{head}: {description[0]}" if description else head)
        for name, spec in properties.items():
            if isinstance(spec, dict) and spec.get("description"):
                lines.append(f"    {name}: {spec['description']}")
    return "\n".join(lines)


def render_messages(
    messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]]
) -> list[dict[str, str]]:
    """OpenAI chat messages (with tools) as plain system/user/assistant messages."""
    system = next((str(m.get("content") or "") for m in messages if m["role"] == "system"), "")
    parts = [system] if system else []
    if tools:
        parts.append("You can use these tools:\n" + describe_tools(tools))
    parts.append(FORMAT_INSTRUCTIONS)
    out: list[dict[str, str]] = [{"role": "system", "content": "\n\n".join(parts)}]
    names: dict[str, str] = {}
    for message in messages:
        role = message["role"]
        if role == "user":
            out.append({"role": "user", "content": str(message.get("content") or "")})
        elif role == "assistant":
            calls = message.get("tool_calls") or []
            if calls:
                rendered = []
                for call in calls:
                    function = call.get("function", {})
                    names[str(call.get("id"))] = str(function.get("name", ""))
                    rendered.append(
                        {
                            "name": function.get("name"),
                            "arguments": _loose(function.get("arguments")),
                        }
                    )
                text = json.dumps({"tool_calls": rendered}, ensure_ascii=False)
            else:
                text = json.dumps({"answer": message.get("content") or ""}, ensure_ascii=False)
            out.append({"role": "assistant", "content": text})
        elif role == "tool":
            name = names.get(str(message.get("tool_call_id")), "tool")
            line = f"Result of {name}: {message.get('content')}"
            if out[-1]["role"] == "user" and out[-1]["content"].startswith("Tool results:"):
                out[-1]["content"] += "\n" + line
            else:
                out.append({"role": "user", "content": "Tool results:\n" + line})
    return out


def _loose(arguments: Any) -> Any:
    if isinstance(arguments, str):
        try:
            return json.loads(arguments)
        except ValueError:
            return arguments
    return arguments


def _cap_strings(schema: Any) -> Any:
    """A copy of `schema` with a length cap on every string and no descriptions."""
    if isinstance(schema, list):
        return [_cap_strings(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    capped = {k: _cap_strings(v) for k, v in schema.items() if k not in ("description", "title")}
    if capped.get("type") == "string" and "enum" not in capped:
        capped.setdefault("maxLength", STRING_MAX_CHARS)
    if "properties" in schema:  # property names are data here, not schema keywords
        capped["properties"] = {k: _cap_strings(v) for k, v in schema["properties"].items()}
    return capped


def output_schema(
    tools: Sequence[dict[str, Any]], *, loose_arguments: bool = False, require_call: bool = False
) -> dict[str, Any]:
    """The JSON Schema every reply must satisfy (answer, or calls of the offered tools).

    Args:
        tools: OpenAI `tools` entries.
        loose_arguments: Accept any object as arguments (when a tool's own parameter schema
            cannot be compiled into a grammar).
        require_call: Only tool calls are allowed (`tool_choice: "required"`).
    """
    answer = {
        "type": "object",
        "properties": {"answer": {"type": "string", "maxLength": ANSWER_MAX_CHARS}},
        "required": ["answer"],
        "additionalProperties": False,
    }
    if not tools:
        return answer
    alternatives = []
    for entry in tools:
        function = entry.get("function", {})
        params = function.get("parameters") or {"type": "object"}
        arguments = {"type": "object"} if loose_arguments else _cap_strings(copy.deepcopy(params))
        alternatives.append(
            {
                "type": "object",
                "properties": {"name": {"const": function.get("name")}, "arguments": arguments},
                "required": ["name", "arguments"],
                "additionalProperties": False,
            }
        )
    calls = {
        "type": "object",
        "properties": {
            "tool_calls": {
                "type": "array",
                "items": {"anyOf": alternatives},
                "minItems": 1,
                "maxItems": MAX_CALLS,
            }
        },
        "required": ["tool_calls"],
        "additionalProperties": False,
    }
    if require_call:
        return calls
    return {"anyOf": [answer, calls]}


_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)
_NAME = re.compile(r'"name"\s*:\s*"((?:[^"\\]|\\.)*)"')
_ARGUMENTS = re.compile(r'"arguments"\s*:\s*(.*)$', re.DOTALL)
_ANSWER = re.compile(r'^\s*\{\s*"answer"\s*:\s*"((?:[^"\\]|\\.)*)', re.DOTALL)


def parse_output(text: str) -> ParsedOutput:
    """Read a reply in the format; salvage cut or stray output. Never raises."""
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    if fenced:
        stripped = fenced.group(1)
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, dict):
        calls = value.get("tool_calls")
        if isinstance(calls, list) and calls:
            return ParsedOutput(None, tuple(_call(item) for item in calls))
        if isinstance(value.get("answer"), str):
            return ParsedOutput(value["answer"])
    return _salvage(stripped)


def _call(item: Any) -> tuple[str, str]:
    if not isinstance(item, dict):
        return "", json.dumps(item, ensure_ascii=False)
    arguments = item.get("arguments", {})
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return str(item.get("name") or ""), text


def _salvage(text: str) -> ParsedOutput:
    if '"tool_calls"' in text:
        name = _NAME.search(text)
        arguments = _ARGUMENTS.search(text)
        raw = arguments.group(1) if arguments else text
        try:  # a complete object followed by a cut tail: keep the object
            value, _ = json.JSONDecoder().raw_decode(raw)
            raw = json.dumps(value, ensure_ascii=False)
        except ValueError:
            pass
        return ParsedOutput(None, ((name.group(1) if name else "", raw),))
    answer = _ANSWER.match(text)
    if answer:
        try:
            return ParsedOutput(json.loads(f'"{answer.group(1)}"'))
        except ValueError:
            return ParsedOutput(answer.group(1))
    return ParsedOutput(text)
