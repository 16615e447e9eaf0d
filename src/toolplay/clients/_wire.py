"""Wire formats of a chat request: OpenAI `tools` and the legacy `functions` format.

toolplay builds every request in the current `tools` form. Some references (ToolTalk; AutoDE's
gpt path) spoke the legacy form, which some endpoints still accept: `functions` instead of
`tools`, `function_call` instead of `tool_choice`, an assistant message's single call as
`function_call` (its `content` null), and a result as a `role: function` message with the
tool's `name`. `to_functions` turns a request into that form with its content otherwise
unchanged, keeping the body's key order (a reference's bytes depend on it); `to_tools` reads a
legacy request back (the local model only understands `tools`). Replies in either form are read
by `parse_completion`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

Wire = Literal["tools", "functions"]
"""How a request is put on the wire: OpenAI `tools` (current) or legacy `functions`."""


class WireError(ValueError):
    """A request cannot be put in the legacy form (e.g. two calls in one message)."""


def _choice_to_legacy(choice: Any) -> Any:
    if isinstance(choice, Mapping):
        function = choice.get("function")
        if isinstance(function, Mapping) and "name" in function:
            return {"name": function["name"]}
        return dict(choice)
    if choice == "required":
        raise WireError("the legacy functions format cannot require 'any call'; name a function")
    return choice  # "auto", "none"


def _message_to_legacy(message: Mapping[str, Any], names: dict[str, str]) -> dict[str, Any]:
    role = message.get("role")
    if role == "assistant" and message.get("tool_calls"):
        calls = message["tool_calls"]
        if len(calls) != 1:
            raise WireError(
                f"the legacy functions format holds one call per message, got {len(calls)}"
            )
        call = calls[0]
        function = call.get("function", {})
        names[str(call.get("id"))] = str(function.get("name", ""))
        return {
            "role": "assistant",
            "content": None,
            "function_call": {
                "name": function.get("name", ""),
                "arguments": function.get("arguments", ""),
            },
        }
    if role == "tool":
        name = message.get("name") or names.get(str(message.get("tool_call_id")), "")
        return {"role": "function", "name": name, "content": message.get("content")}
    return dict(message)


def to_functions(request: Mapping[str, Any]) -> dict[str, Any]:
    """`request` (tools form) in the legacy functions form, keys kept in place.

    Raises:
        WireError: A message holds several calls, or a call is forced without naming one.
    """
    names: dict[str, str] = {}
    out: dict[str, Any] = {}
    for key, value in request.items():
        if key == "tools":
            out["functions"] = [t.get("function", t) for t in value]
        elif key == "tool_choice":
            out["function_call"] = _choice_to_legacy(value)
        elif key == "messages":
            out["messages"] = [_message_to_legacy(m, names) for m in value]
        elif key == "parallel_tool_calls":
            continue
        else:
            out[key] = value
    return out


def to_tools(request: Mapping[str, Any]) -> dict[str, Any]:
    """A legacy functions-form `request` in the tools form (a tools-form one unchanged)."""
    if "functions" not in request and not any(
        m.get("role") == "function" or "function_call" in m for m in request.get("messages", [])
    ):
        return dict(request)
    out: dict[str, Any] = {}
    pending: list[str] = []
    for key, value in request.items():
        if key == "functions":
            out["tools"] = [{"type": "function", "function": f} for f in value]
        elif key == "function_call":
            if isinstance(value, Mapping) and "name" in value:
                out["tool_choice"] = {"type": "function", "function": {"name": value["name"]}}
            else:
                out["tool_choice"] = value
        elif key == "messages":
            messages: list[dict[str, Any]] = []
            for number, message in enumerate(value):
                call = message.get("function_call") if message.get("role") == "assistant" else None
                if isinstance(call, Mapping):
                    call_id = f"legacy_{number}"
                    pending.append(call_id)
                    messages.append(
                        {
                            "role": "assistant",
                            "content": message.get("content"),
                            "tool_calls": [
                                {"id": call_id, "type": "function", "function": dict(call)}
                            ],
                        }
                    )
                elif message.get("role") == "function":
                    messages.append(
                        {
                            "role": "tool",
                            "tool_call_id": pending.pop(0) if pending else "",
                            "name": message.get("name"),
                            "content": message.get("content"),
                        }
                    )
                else:
                    messages.append(dict(message))
            out["messages"] = messages
        else:
            out[key] = value
    return out


def on_wire(request: dict[str, Any], wire: Wire) -> dict[str, Any]:
    """`request` (tools form) as it goes on the wire."""
    return to_functions(request) if wire == "functions" else request
