"""Messages, tool calls and trajectories: the records every other package shares.

A conversation is a linear log (the *message bus*). Each message names its sender and
recipient and who may see it; each role reads only its own view. Tool calls carry the raw
argument text exactly as the assistant produced it, so malformed JSON survives into the
record and the scorer sees what the model really said.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Role = Literal["system", "user", "assistant", "environment"]
"""The parties of a conversation. `environment` executes tools."""

TerminationReason = Literal[
    "user_ended",
    "script_exhausted",
    "turn_limit",
    "call_limit",
    "assistant_error",
    "infrastructure_error",
    "completed",
]
"""Why a conversation stopped. `completed` is used by static mode, which ends on its own."""

ErrorType = Literal[
    "unknown_tool",
    "malformed_arguments",
    "invalid_arguments",
    "not_logged_in",
    "tool_error",
]
"""Kinds of failed tool calls, all reported back to the assistant as the tool result."""


class ToolCall(BaseModel):
    """One call an assistant asked for."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    arguments: str = Field(description="Argument JSON text exactly as produced.")

    @classmethod
    def from_args(cls, id: str, name: str, arguments: dict[str, Any]) -> ToolCall:
        """Build a call from already-parsed arguments (oracle, replay, tests)."""
        return cls(id=id, name=name, arguments=json.dumps(arguments, ensure_ascii=False))

    def parsed_arguments(self) -> dict[str, Any] | None:
        """The arguments as a dict, or None when the text is not a JSON object."""
        try:
            value = json.loads(self.arguments)
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None


class ModelExchange(BaseModel):
    """What a model was really sent and really said for one message (never a key).

    Endpoints: the request body as sent and the response body as received. Local models: the
    request as toolplay built it, the exact prompt text the model read (its chat template
    applied to the system prompt, the tool list and format instructions, the conversation
    and the tool results) and its raw output before parsing.
    """

    model_config = ConfigDict(frozen=True)

    request: dict[str, Any] | None = None
    response: dict[str, Any] | None = None
    prompt: str | None = Field(default=None, description="Local models: the exact prompt text.")
    output: str | None = Field(default=None, description="Local models: the raw output text.")
    cached: bool = Field(default=False, description="Served from the response cache.")
    previous: int | None = Field(
        default=None,
        description="Stored once per message (exchange format 2): the bus index of the "
        "message whose exchange's request began with the `prefix` messages this request "
        "begins with; they are left out of `request.messages` here.",
    )
    prefix: int = Field(default=0, description="How many leading request messages are left out.")


class Message(BaseModel):
    """One entry of the message bus.

    A tool result is a message from `environment` to `assistant` with `tool_call_id` set
    and either `result` (JSON-able) or `error` filled.
    """

    model_config = ConfigDict(frozen=True)

    index: int
    sender: Role
    recipient: Role
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    tool_name: str | None = None
    result: Any = None
    error: str | None = None
    error_type: ErrorType | None = None
    error_code: str | None = Field(
        default=None,
        description="A failed call's condition, for presentations that word errors their own "
        "way (e.g. a reference's texts): see toolplay.tools.ToolError.",
    )
    error_fields: dict[str, str] | None = Field(
        default=None, description="The values the text for `error_code` fills in."
    )
    visible_to: tuple[Role, ...] = ()
    turn: int | None = Field(
        default=None, description="Static mode: the reference turn this message belongs to."
    )
    from_reference: bool = Field(
        default=False,
        description="Static mode: replayed from the scenario's reference (user words, "
        "ground-truth calls, results and replies), not produced by the assistant under test.",
    )
    exchange: ModelExchange | None = Field(
        default=None,
        description="A model's message: the raw request and response behind it (option "
        "record_exchanges; never the key).",
    )
    executed_arguments: str | None = Field(
        default=None,
        description="A tool result: the arguments of the call it answers as the environment "
        "executed them, when a method's executor changes them (ToolTalk's writes the session "
        "token into them and re-serialises them); None: the call's own text. A presentation "
        "that shows calls as executed renders this.",
    )

    @property
    def is_tool_result(self) -> bool:
        """True for the environment's answer to a tool call."""
        return self.tool_call_id is not None


class Usage(BaseModel):
    """Token usage of model calls, summed."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0

    def add(self, other: Usage) -> Usage:
        """Return the sum of two usages."""
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            calls=self.calls + other.calls,
        )


class WorldChange(BaseModel):
    """One recorded change of the world, made while producing message `index`."""

    model_config = ConfigDict(frozen=True)

    index: int
    table: str
    op: Literal["insert", "update", "delete", "session"]
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None


class ScenarioInfo(BaseModel):
    """What a report needs to know about the scenario a trajectory played (stored with it)."""

    description: str = ""
    categories: list[str] = Field(default_factory=list)
    evaluation: str = ""
    split: str | None = None
    domain: str | None = None
    augmentation: str | None = None
    base_id: str | None = None


class Trajectory(BaseModel):
    """Everything that happened in one conversation: the canonical input of every scorer."""

    scenario_id: str
    trial: int = 0
    messages: list[Message] = Field(default_factory=list)
    changes: list[WorldChange] = Field(default_factory=list)
    termination: TerminationReason = "completed"
    error: str | None = None
    usage: Usage = Field(default_factory=Usage)
    assistant: str = ""
    user: str = ""
    mode: str = Field(default="dynamic", description="The mode that played it (catalog name).")
    tool_names: dict[str, str] = Field(
        default_factory=dict,
        description="Shown tool name -> real tool name when an augmentation renamed tools.",
    )
    scenario: ScenarioInfo | None = Field(
        default=None, description="The scenario's description and categories (set by a run)."
    )

    def real_tool_name(self, shown: str) -> str:
        """The real tool behind a name the assistant used (itself when not renamed)."""
        return self.tool_names.get(shown, shown)

    @model_validator(mode="before")
    @classmethod
    def _whole_exchanges(cls, data: Any) -> Any:
        """Stored exchanges (format 2) read back whole: each request with all its messages."""
        if isinstance(data, dict) and data.get("exchange_format") == EXCHANGE_FORMAT:
            data = expand_exchanges(data)
        return data


EXCHANGE_FORMAT = 2
"""Exchange records stored once per message (`compact_exchanges`); format 1 (no marker):
every request whole, the conversation repeated in each."""


def _request_messages(message: dict[str, Any]) -> list[Any] | None:
    exchange = message.get("exchange")
    request = exchange.get("request") if isinstance(exchange, dict) else None
    found = request.get("messages") if isinstance(request, dict) else None
    return found if isinstance(found, list) else None


def compact_exchanges(data: dict[str, Any]) -> dict[str, Any]:
    """A trajectory's JSON data with each request's messages stored once per message.

    A chat request repeats the conversation so far, so storing each whole grows with the
    square of the conversation's length. Here a request keeps only the messages after the
    longest prefix it shares with the previous request of the same sender (the assistant's,
    or a simulated user's own chat): `previous` names that message, `prefix` the count. Data
    without exchanges is returned as it is; `expand_exchanges` undoes it exactly.
    """
    messages = data.get("messages") or []
    if not any(_request_messages(m) for m in messages):
        return data
    last: dict[Any, tuple[int, list[Any]]] = {}
    out = []
    for message in messages:
        whole = _request_messages(message)
        if whole is None:
            out.append(message)
            continue
        before = last.get(message.get("sender"))
        last[message.get("sender")] = (message["index"], whole)
        shared = 0
        if before is not None:
            limit = min(len(before[1]), len(whole))
            while shared < limit and before[1][shared] == whole[shared]:
                shared += 1
        if not shared:
            out.append(message)
            continue
        exchange = dict(message["exchange"])
        exchange["request"] = {**exchange["request"], "messages": whole[shared:]}
        exchange["previous"], exchange["prefix"] = before[0], shared  # type: ignore[index]
        out.append({**message, "exchange": exchange})
    return {**data, "messages": out, "exchange_format": EXCHANGE_FORMAT}


def expand_exchanges(data: dict[str, Any]) -> dict[str, Any]:
    """The inverse of `compact_exchanges`: every request with all its messages again."""
    whole_at: dict[int, list[Any]] = {}
    out = []
    for message in data.get("messages") or []:
        exchange = message.get("exchange") if isinstance(message, dict) else None
        messages = _request_messages(message) if isinstance(message, dict) else None
        if messages is None or not isinstance(exchange, dict):
            out.append(message)
            continue
        previous = exchange.get("previous")
        if previous is not None:
            messages = [*whole_at[previous][: exchange.get("prefix", 0)], *messages]
            exchange = {k: v for k, v in exchange.items() if k not in ("previous", "prefix")}
            exchange["request"] = {**exchange["request"], "messages": messages}
            message = {**message, "exchange": exchange}
        whole_at[message["index"]] = messages
        out.append(message)
    return {k: v for k, v in data.items() if k != "exchange_format"} | {"messages": out}


def turn_count(messages: Sequence[Message]) -> int:
    """The conversation's length in turns (ToolSandbox's effective turn count).

    Every message between user, assistant and environment counts; system messages, the user's
    own tool calls (`end_conversation`) and any answer to them do not. The one definition used
    by play (the turn limit), scoring and reports.

    A scenario's `max_turns` is checked against it before the assistant speaks: once the
    conversation holds `max_turns` turns the assistant is not asked again (`turn_limit`). Its
    last message may still make the count pass the limit: a message of N tool calls is followed
    by its N results (a call is never left unanswered), so a conversation cut at
    `max_turns: 16` after a single call counts 17.
    """
    return sum(
        1
        for m in messages
        if m.sender != "system"
        and not (m.sender == "user" and m.recipient == "environment")
        and not (m.sender == "environment" and m.recipient == "user")
    )
