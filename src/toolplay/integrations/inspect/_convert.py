"""toolplay's messages and tool schemas as Inspect's, and Inspect's model output as toolplay's.

Two directions, two uses:

- the assistant's view of the bus becomes Inspect chat messages (the same roles, texts, call ids
  and tool results that `toolplay.roles.openai_messages` sends to an endpoint, so an
  OpenAI-compatible provider behind Inspect receives the request toolplay itself would send, up
  to Inspect's own rendering), and the offered tool schemas become `ToolInfo`;
- the model's `ModelOutput` becomes an `AssistantTurn`: text, or tool calls with their argument
  text. Inspect parses argument text itself; where it could not (`parse_error`), the raw text is
  taken back from the error so the environment reports the call as malformed to the model, as
  `toolplay run` does. (Inspect echoes such a call in later requests as `{}`: it keeps only
  parsed arguments.)

`trajectory_messages` renders a whole trajectory as Inspect messages for the log, each tagged
with its place on the bus (`metadata`), so `inspect view` shows the conversation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
)
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolCallError, ToolInfo, ToolParams

from toolplay.messages import Message, ToolCall, Usage
from toolplay.roles import AssistantTurn
from toolplay.roles._chat import tool_result_content

_PARSE_ERROR = re.compile(
    r"^Error parsing the following tool call arguments:\n\n(?P<raw>.*)\n\nError details: ",
    re.DOTALL,
)


def inspect_tools(schemas: Sequence[Mapping[str, Any]]) -> list[ToolInfo]:
    """OpenAI `tools` entries (as toolplay presents them) as Inspect `ToolInfo`."""
    tools = []
    for schema in schemas:
        function = schema["function"]
        parameters = function.get("parameters") or {"type": "object", "properties": {}}
        tools.append(
            ToolInfo(
                name=function["name"],
                description=function.get("description") or "",
                parameters=ToolParams.model_validate(parameters),
            )
        )
    return tools


def inspect_call(call: ToolCall) -> InspectToolCall:
    """A toolplay call as Inspect's (unparseable argument text kept as a parse error)."""
    parsed = call.parsed_arguments()
    return InspectToolCall(
        id=call.id,
        function=call.name,
        arguments=parsed if parsed is not None else {},
        parse_error=None if parsed is not None else f"not a JSON object: {call.arguments}",
    )


def inspect_message(message: Message) -> ChatMessage | None:
    """One bus message as an Inspect chat message (None: nothing a chat model would see)."""
    if message.sender == "system":
        return ChatMessageSystem(content=message.content or "")
    if message.sender == "user" and message.recipient == "assistant":
        return ChatMessageUser(content=message.content or "")
    if message.sender == "assistant":
        return ChatMessageAssistant(
            content=message.content or "",
            tool_calls=[inspect_call(c) for c in message.tool_calls] or None,
        )
    if message.is_tool_result and message.recipient == "assistant":
        error = None
        if message.error is not None:
            malformed = message.error_type == "malformed_arguments"
            error = ToolCallError("parsing" if malformed else "unknown", message.error)
        return ChatMessageTool(
            content=tool_result_content(message),
            tool_call_id=message.tool_call_id,
            function=message.tool_name,
            error=error,
        )
    return None


def inspect_messages(view: Sequence[Message]) -> list[ChatMessage]:
    """The assistant's view of the bus as the input of an Inspect model."""
    return [m for m in (inspect_message(message) for message in view) if m is not None]


def trajectory_messages(messages: Sequence[Message]) -> list[ChatMessage]:
    """A whole trajectory as Inspect messages for the log, each tagged with its bus fields."""
    out: list[ChatMessage] = []
    for message in messages:
        converted = inspect_message(message)
        if converted is None:
            continue
        converted.metadata = {
            "index": message.index,
            "sender": message.sender,
            "recipient": message.recipient,
            "turn": message.turn,
            "from_reference": message.from_reference,
        }
        out.append(converted)
    return out


def raw_arguments(call: InspectToolCall) -> str:
    """The argument text the model wrote, as far as Inspect kept it."""
    if call.parse_error is None:
        return json.dumps(call.arguments, ensure_ascii=False)
    found = _PARSE_ERROR.match(call.parse_error)
    # Without the raw text, the error itself: not a JSON object either, so still malformed.
    return found.group("raw") if found else call.parse_error


def assistant_turn(output: ModelOutput, first_call_number: int = 0) -> AssistantTurn:
    """An Inspect model's answer as toolplay's (fresh call ids numbered like `toolplay run`)."""
    message = output.message
    calls: list[ToolCall] = []
    seen: set[str] = set()
    for position, call in enumerate(message.tool_calls or []):
        call_id = call.id
        if not call_id or call_id in seen:
            call_id = f"call_{first_call_number + position}"
        seen.add(call_id)
        calls.append(ToolCall(id=call_id, name=call.function, arguments=raw_arguments(call)))
    text = message.text
    usage = Usage(calls=1)
    if output.usage is not None:
        usage = Usage(
            prompt_tokens=output.usage.input_tokens,
            completion_tokens=output.usage.output_tokens,
            calls=1,
        )
    # With tool calls, no text is no content (as an endpoint's `content: null`).
    content = (text or None) if calls else text
    return AssistantTurn(content=content, tool_calls=tuple(calls), usage=usage)


def openai_dict_messages(messages: Sequence[Mapping[str, Any]]) -> list[ChatMessage]:
    """Plain OpenAI chat messages with text content (a user simulator's) as Inspect's."""
    out: list[ChatMessage] = []
    for message in messages:
        content = str(message.get("content") or "")
        role = message.get("role")
        if role == "system":
            out.append(ChatMessageSystem(content=content))
        elif role == "assistant":
            out.append(ChatMessageAssistant(content=content))
        else:
            out.append(ChatMessageUser(content=content))
    return out
