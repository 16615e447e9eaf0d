"""The message bus: an append-only log where each role reads only what it may see."""

from __future__ import annotations

from typing import Any

from toolplay.messages import Message, Role, ToolCall


class MessageBus:
    """Append-only list of messages with per-role views."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    @property
    def next_index(self) -> int:
        """Index the next message will get."""
        return len(self.messages)

    def post(
        self,
        sender: Role,
        recipient: Role,
        *,
        visible_to: tuple[Role, ...],
        content: str | None = None,
        tool_calls: tuple[ToolCall, ...] = (),
        **fields: Any,
    ) -> Message:
        """Append a message and return it."""
        message = Message(
            index=len(self.messages),
            sender=sender,
            recipient=recipient,
            content=content,
            tool_calls=tool_calls,
            visible_to=visible_to,
            **fields,
        )
        self.messages.append(message)
        return message

    def view(self, role: Role) -> tuple[Message, ...]:
        """The messages `role` may see, in order."""
        return tuple(m for m in self.messages if role in m.visible_to)
