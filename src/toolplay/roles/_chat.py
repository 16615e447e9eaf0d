"""Assistants behind a chat-completions model: the bus in, an `AssistantTurn` out.

The run's presentation (`_presentation`) turns the assistant's view of the bus into the request
and reads the reply back (toolplay's own: OpenAI messages with `tool_calls` and `role: tool`
results). The reply's tool calls (several = parallel calls) go to the environment as the model
wrote them; a malformed argument text is the environment's to report back, never an
infrastructure error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolplay.clients import ChatClient, ModelSettings
from toolplay.messages import Message
from toolplay.roles._base import AssistantContext, AssistantTurn
from toolplay.roles._presentation import (
    Presentation,
    chat_request,
    openai_messages,
    tool_result_content,
)

__all__ = [
    "ChatAssistant",
    "ChatModelRole",
    "calls_so_far",
    "chat_request",
    "openai_messages",
    "tool_result_content",
]


def calls_so_far(messages: Sequence[Message]) -> int:
    """How many tool calls a view holds (numbers fresh call ids deterministically)."""
    return sum(len(m.tool_calls) for m in messages)


class ChatModelRole:
    """A role played by a chat-completions model (endpoint or local): what it is built from.

    Args:
        name: The role name recorded with every result (e.g. `openai:gpt-4o`).
        model: The model name sent in requests.
        client: Backend plus cache and retries.
        settings: Sampling and connection settings, the presentation's defaults filled in.
        describe: Public settings recorded with the run (never the key).
        presentation: How requests are built and answers read (`_presentation`).
    """

    def __init__(
        self,
        name: str,
        model: str,
        client: ChatClient,
        settings: ModelSettings,
        describe: dict[str, Any],
        presentation: Presentation | None = None,
    ) -> None:
        self.name = name
        self.model = model
        self.client = client
        self.presentation = presentation or Presentation()
        self.model_settings = settings
        self.settings = describe

    async def aclose(self) -> None:
        """Release the client's connections."""
        await self.client.aclose()


class ChatAssistant(ChatModelRole):
    """The assistant under test is a chat-completions model (endpoint or local)."""

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Ask the model for the next turn, as the presentation puts it."""
        request = self.presentation.assistant_request(self.model, self.model_settings, context)
        reply = await self.client.complete(
            request, calls_so_far(context.messages), trial=context.trial
        )
        reply = self.presentation.read_reply(reply, context)
        return AssistantTurn(
            content=reply.content,
            tool_calls=reply.tool_calls,
            usage=reply.usage,
            exchange=reply.exchange if self.model_settings.record_exchanges else None,
        )
