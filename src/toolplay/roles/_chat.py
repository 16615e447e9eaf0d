"""Assistants behind a chat-completions model: the bus in, an `AssistantTurn` out.

The assistant's view of the bus becomes OpenAI messages: the system prompt, user and assistant
text, assistant `tool_calls`, and each tool result as a `role: tool` message answering its
`tool_call_id`. The reply's tool calls (several = parallel calls) go to the environment as the
model wrote them; a malformed argument text is the environment's to report back, never an
infrastructure error.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from toolplay.clients import ChatClient, ModelSettings
from toolplay.messages import Message
from toolplay.roles._base import AssistantContext, AssistantTurn


def tool_result_content(message: Message) -> str:
    """The text a model reads for a tool result: the result as JSON, or the error."""
    if message.error is not None:
        return f"Error: {message.error}"
    return json.dumps(message.result, ensure_ascii=False, sort_keys=True)


def openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The assistant's view of the bus as OpenAI chat messages."""
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.sender == "system":
            out.append({"role": "system", "content": message.content or ""})
        elif message.sender == "user":
            out.append({"role": "user", "content": message.content or ""})
        elif message.sender == "assistant":
            entry: dict[str, Any] = {"role": "assistant", "content": message.content}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments},
                    }
                    for call in message.tool_calls
                ]
            elif entry["content"] is None:
                entry["content"] = ""
            out.append(entry)
        elif message.is_tool_result:
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": message.tool_call_id,
                    "content": tool_result_content(message),
                }
            )
    return out


def calls_so_far(messages: Sequence[Message]) -> int:
    """How many tool calls a view holds (numbers fresh call ids deterministically)."""
    return sum(len(m.tool_calls) for m in messages)


def chat_request(
    model: str,
    settings: ModelSettings,
    messages: list[dict[str, Any]],
    tools: Sequence[dict[str, Any]] = (),
    *,
    trial: int = 0,
) -> dict[str, Any]:
    """A chat-completions request body; the seed moves with the trial so trials differ."""
    request: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "temperature": settings.temperature,
    }
    if tools:
        request["tools"] = list(tools)
    if settings.seed is not None:
        request["seed"] = settings.seed + trial
    if settings.max_tokens is not None:
        request["max_tokens"] = settings.max_tokens
    return request


class ChatModelRole:
    """A role played by a chat-completions model (endpoint or local): what it is built from.

    Args:
        name: The role name recorded with every result (e.g. `openai:gpt-4o`).
        model: The model name sent in requests.
        client: Backend plus cache and retries.
        settings: Sampling and connection settings.
        describe: Public settings recorded with the run (never the key).
    """

    def __init__(
        self,
        name: str,
        model: str,
        client: ChatClient,
        settings: ModelSettings,
        describe: dict[str, Any],
    ) -> None:
        self.name = name
        self.model = model
        self.client = client
        self.model_settings = settings
        self.settings = describe

    async def aclose(self) -> None:
        """Release the client's connections."""
        await self.client.aclose()


class ChatAssistant(ChatModelRole):
    """The assistant under test is a chat-completions model (endpoint or local)."""

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Ask the model for the next turn."""
        messages = openai_messages(context.messages)
        if context.system_prompt and not any(m["role"] == "system" for m in messages):
            messages.insert(0, {"role": "system", "content": context.system_prompt})
        request = chat_request(
            self.model, self.model_settings, messages, context.tools, trial=context.trial
        )
        if context.force_tool_call and context.tools:  # AutoDE static mode
            request["tool_choice"] = "required"
        reply = await self.client.complete(
            request, calls_so_far(context.messages), trial=context.trial
        )
        return AssistantTurn(
            content=reply.content,
            tool_calls=reply.tool_calls,
            usage=reply.usage,
            exchange=reply.exchange if self.model_settings.record_exchanges else None,
        )
