"""The assistant's view of the conversation as the ToolSandbox reference renders it.

`message_conversion.to_openai_messages` of the reference, rule by rule (each checked against
captured reference requests):

- system and user messages as they are; the assistant's text answers as they are;
- a message of tool calls becomes `{"role": "assistant", "content": "", "tool_calls": [...]}`:
  the content is always `""` (text the model wrote beside its calls is never shown again), each
  call is `{"id", "function": {"arguments", "name"}, "type": "function"}` with the name the
  model used and the argument text RE-RENDERED: the reference stores a call as Python code and
  reads it back, so the model sees `json.dumps(json.loads(its text))` (Python's defaults:
  `", "` and `": "`, ASCII escapes, its key order, the last of duplicate keys); argument text
  that is not JSON is shown as written (the reference would have ended the scenario);
- each result becomes `{"tool_call_id", "role": "tool", "name": <the name the model used>,
  "content"}`, the content being what the reference's execution environment prints: the
  Python `repr` of the result, or for a failed call the last line of the exception the
  reference raises (`error_text`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from toolplay.messages import Message, ToolCall
from toolplay.methods.toolsandbox._shown import ReferenceData
from toolplay.tools import EXCEPTION


def shown_arguments(text: str) -> str:
    """The argument text the reference shows back for a call (module docstring)."""
    try:
        return json.dumps(json.loads(text))
    except (ValueError, RecursionError):
        return text


def result_text(message: Message) -> str:
    """What the reference's environment prints for a successful call: the result's repr."""
    return repr(message.result)


def error_text(
    message: Message, real: str | None, shown_names: Sequence[str], data: ReferenceData
) -> str:
    """The reference's text for a failed call, from the error's code (`toolplay.tools.
    ToolError`) and the exported texts; an error the reference has no text for (a condition
    only toolplay reports) keeps toolplay's words, as `Error: ...`.
    """
    code, fields = message.error_code, dict(message.error_fields or {})
    errors = data.errors
    if code == EXCEPTION and "line" in fields:
        return fields["line"]
    if code in errors["fixed"]:
        return str(errors["fixed"][code])
    if code in errors["volatile"]:
        return str(errors["volatile"][code])
    facts = data.tools.get(real or "")
    if code == "unknown_tool" and "name" in fields:
        names = "{" + ", ".join(repr(n) for n in sorted(shown_names)) + "}"
        return str(errors["unknown_tool"]).format(name_repr=repr(fields["name"]), names=names)
    if code == "wrong_type" and facts is not None:
        parameter = facts.parameter(fields.get("param", ""))
        if parameter is not None:
            fields["expected"] = parameter.annotation
    if code == "not_a_mapping" and facts is not None:
        fields["qualified_name"] = facts.qualified_name
    if code in ("missing_argument", "unexpected_argument", "wrong_type") and "param" in fields:
        fields.setdefault("param_repr", repr(fields["param"]))
    template = errors["templates"].get(code or "")
    if template is not None:
        try:
            return str(template["template"]).format(**fields)
        except (KeyError, IndexError):
            pass
    return f"Error: {message.error}"


def agent_messages(
    messages: Sequence[Message], data: ReferenceData, shown_names: Sequence[str]
) -> list[dict[str, Any]]:
    """The assistant's view as the reference's OpenAI messages (module docstring).

    Args:
        messages: The assistant's view of the bus.
        data: The exported texts.
        shown_names: The names of the tools the assistant is offered.
    """
    out: list[dict[str, Any]] = []
    calls: dict[str, ToolCall] = {}
    for message in messages:
        if message.sender == "system":
            out.append({"role": "system", "content": message.content or ""})
        elif message.sender == "user":
            out.append({"role": "user", "content": message.content or ""})
        elif message.sender == "assistant" and message.tool_calls:
            calls.update({call.id: call for call in message.tool_calls})
            out.append(
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": call.id,
                            "function": {
                                "arguments": shown_arguments(call.arguments),
                                "name": call.name,
                            },
                            "type": "function",
                        }
                        for call in message.tool_calls
                    ],
                }
            )
        elif message.sender == "assistant":
            out.append({"role": "assistant", "content": message.content or ""})
        elif message.is_tool_result:
            call = calls.get(message.tool_call_id or "")
            shown = call.name if call is not None else (message.tool_name or "")
            if message.error is None:
                content = result_text(message)
            else:
                content = error_text(message, message.tool_name, shown_names, data)
            out.append(
                {
                    "tool_call_id": message.tool_call_id,
                    "role": "tool",
                    "name": shown,
                    "content": content,
                }
            )
    return out
