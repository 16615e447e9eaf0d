"""What roles receive and return, and how a role is built from a command-line spec.

An assistant or user is any object with a `name` and an async `respond(context)`. Each role
sees only what it should. The assistant under test gets an `AssistantContext`: its view of the
message bus, the tools as shown to it, the system prompt, and the scenario id and trial for
bookkeeping; never the reference solution, the milestones or the user's goal. Only an
assistant class that declares `sees_reference = True` (the oracle, the replay of saved
predictions: harness parts, not assistants under test) also gets a `ReferenceView`. The user is
part of the harness too and reads its side of the scenario (script, goal, label) from its
`UserContext`.

A role that cannot reach its model after retries raises `InfrastructureError`
(`toolplay.faults`); the run records that scenario as an error and never scores it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from toolplay.clients import ModelOptions, ResponseCache
from toolplay.errors import InputError
from toolplay.messages import Message, ModelExchange, TerminationReason, ToolCall, Usage
from toolplay.scenarios import Scenario

if TYPE_CHECKING:
    from toolplay.roles._presentation import Presentation


@dataclass(frozen=True)
class ReferenceView:
    """What a privileged assistant (`sees_reference = True`) sees besides the conversation."""

    scenario: Scenario
    tool_names: Mapping[str, str] = field(default_factory=dict)
    """Shown -> real names of tools an augmentation renamed."""


@dataclass(frozen=True)
class AssistantContext:
    """What the assistant is given when it is its turn to speak."""

    scenario_id: str
    trial: int
    messages: tuple[Message, ...]
    tools: tuple[dict[str, Any], ...] = ()
    system_prompt: str | None = None
    force_tool_call: bool = False
    """The assistant must answer with a tool call (AutoDE static mode); model roles constrain
    their output accordingly (`tool_choice: required`), scripted roles may ignore it."""
    reference: ReferenceView | None = None
    """Only for assistants that declare `sees_reference = True`; None for any other."""


@dataclass(frozen=True)
class UserContext:
    """What the user is given when it is its turn to speak."""

    scenario: Scenario
    trial: int
    messages: tuple[Message, ...]
    instructions: str | None = None
    """The run's own instructions for a model-driven user (`PlaySettings.user_prompt`), in
    place of the role's; other users ignore them."""
    style: str = "toolsandbox"
    """How a model-driven user is briefed (`PlaySettings.user_simulator`)."""
    after_failed_call: bool = False
    """The user's previous answer was a tool call that failed (a model-driven user's
    presentation may then offer it no tools, as the ToolSandbox reference does)."""


@dataclass(frozen=True)
class AssistantTurn:
    """An assistant's answer: text for the user, or tool calls for the environment."""

    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    exchange: ModelExchange | None = None
    """What the model behind it was sent and said (chat-model assistants; None otherwise)."""


@dataclass(frozen=True)
class UserTurn:
    """A user's answer: text for the assistant, or the end of the conversation."""

    content: str | None = None
    end: TerminationReason | None = None
    usage: Usage = field(default_factory=Usage)


class Assistant(Protocol):
    """The assistant under test."""

    name: str

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Answer the conversation so far."""
        ...


class User(Protocol):
    """The user side of the conversation."""

    name: str

    async def respond(self, context: UserContext) -> UserTurn:
        """Say the next thing, or end the conversation."""
        ...


def sees_reference(assistant: object) -> bool:
    """Whether `assistant` is a privileged harness role that reads the reference solution."""
    return getattr(type(assistant), "sees_reference", False) is True


@dataclass(frozen=True)
class RoleRequest:
    """What a role factory is given to build a role from a spec `kind[:argument]`."""

    argument: str
    """The part of the spec after `kind:` (empty when absent)."""
    model: ModelOptions = field(default_factory=ModelOptions)
    """This role's model options (a user's already fall back to the assistant's)."""
    cache: ResponseCache | None = None
    concurrency: int = 1
    presentation: Presentation | None = None
    """How a model-backed role builds its requests and reads answers (None: toolplay's)."""


@dataclass(frozen=True)
class RoleKind:
    """A kind of assistant or user that specs can name (`openai:MODEL`, `oracle`, ...)."""

    name: str
    build: Callable[[RoleRequest], Any]
    """Returns an `Assistant` (assistant kinds) or a `User` (user kinds)."""
    description: str = ""
    usage: str = ""
    """How to write the spec, e.g. `openai:MODEL` (default: the name)."""


@dataclass(frozen=True)
class ReplayFormat:
    """A kind of saved output `--assistant replay:PATH` reads back (a method registers its own:
    ToolTalk's folder of predictions, AutoDE's results file).
    """

    name: str
    build: Callable[[RoleRequest], Any]
    """Returns an `Assistant` (saved calls executed again) or a `Recording` (read)."""
    what: str
    """What PATH is, e.g. `a folder of ToolTalk predictions`."""
    usage: str
    """How to write the spec, e.g. `replay:DIR`."""
    accepts: Callable[[Path], bool] | None = None
    """Whether PATH is one of these (None: any PATH no other format accepts)."""


class RoleSpecError(InputError):
    """A role spec names no known kind of role."""
