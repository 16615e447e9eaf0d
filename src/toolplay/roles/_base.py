"""What roles receive and return, and the errors that separate infrastructure from skill.

An assistant or user is any object with a `name` and an async `respond(context)`. Roles see
only their own view of the message bus. A role that cannot reach its model after retries raises
`InfrastructureError`; the run records that scenario as an error and never scores it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from toolplay.messages import Message, TerminationReason, ToolCall, Usage
from toolplay.scenarios import Scenario


class InfrastructureError(Exception):
    """A model endpoint, user simulator or harness fault: not the assistant's failure."""


class AssistantError(Exception):
    """The assistant itself failed (e.g. a wrapped agent raised): scored as its failure."""


@dataclass(frozen=True)
class RoleContext:
    """What a role is given when it is its turn to speak."""

    scenario: Scenario
    messages: tuple[Message, ...]
    tools: tuple[dict[str, Any], ...] = ()
    system_prompt: str | None = None
    tool_names: Mapping[str, str] = field(default_factory=dict)
    """Shown → real names of renamed tools. Only privileged roles (the oracle) use it."""
    force_tool_call: bool = False
    """The assistant must answer with a tool call (AutoDE static mode); model roles constrain
    their output accordingly (`tool_choice: required`), scripted roles may ignore it."""


@dataclass(frozen=True)
class AssistantTurn:
    """An assistant's answer: text for the user, or tool calls for the environment."""

    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class UserTurn:
    """A user's answer: text for the assistant, or the end of the conversation."""

    content: str | None = None
    end: TerminationReason | None = None
    usage: Usage = field(default_factory=Usage)


class Assistant(Protocol):
    """The assistant under test."""

    name: str

    async def respond(self, context: RoleContext) -> AssistantTurn:
        """Answer the conversation so far."""
        ...


class User(Protocol):
    """The user side of the conversation."""

    name: str

    async def respond(self, context: RoleContext) -> UserTurn:
        """Say the next thing, or end the conversation."""
        ...
