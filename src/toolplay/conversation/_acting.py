"""The small steps `Conversation` is made of: ask the assistant, post its answer, run its calls.

Asking the assistant classifies its faults (infrastructure or its own); a message's tool calls
run in the order the environment chooses (`_environment`), one result message per call, posted
in that order.
"""

from __future__ import annotations

from toolplay.conversation._bus import MessageBus
from toolplay.conversation._environment import Environment
from toolplay.faults import AssistantError, InfrastructureError
from toolplay.roles import Assistant, AssistantContext, AssistantTurn
from toolplay.tools import ToolCrash


class Stop(Exception):
    """Ends a conversation with a termination reason (and the error behind it, if any)."""

    def __init__(self, reason: str, error: str | None = None) -> None:
        super().__init__(error or reason)
        self.reason = reason
        self.error = error


async def ask_assistant(assistant: Assistant, context: AssistantContext) -> AssistantTurn:
    """The assistant's answer; its faults become `Stop` with the right termination reason.

    An endpoint that failed after its retries is an infrastructure error; anything else the
    assistant raises is its own failure.
    """
    try:
        return await assistant.respond(context)
    except InfrastructureError as exc:
        raise Stop("infrastructure_error", str(exc)) from exc
    except AssistantError as exc:
        raise Stop("assistant_error", str(exc)) from exc
    except Exception as exc:
        raise Stop("assistant_error", f"assistant raised {exc!r}") from exc


def post_answer(bus: MessageBus, answer: AssistantTurn, turn: int | None = None) -> None:
    """Append the assistant's answer: tool calls to the environment, or text to the user."""
    if answer.tool_calls:
        bus.post(
            "assistant",
            "environment",
            visible_to=("assistant", "environment"),
            content=answer.content,
            tool_calls=answer.tool_calls,
            turn=turn,
            exchange=answer.exchange,
        )
    else:
        bus.post(
            "assistant",
            "user",
            visible_to=("user", "assistant"),
            content=answer.content or "",
            turn=turn,
            exchange=answer.exchange,
        )


def run_calls(bus: MessageBus, environment: Environment, turn: int | None = None) -> None:
    """Execute the tool calls of the last message and post one result message per call.

    A tool that crashes (a harness bug) ends the conversation as an infrastructure error.
    """
    calls = bus.messages[-1].tool_calls
    try:
        order = environment.order(calls)
    except ToolCrash as exc:
        raise Stop("infrastructure_error", str(exc)) from exc
    for position in order:
        call = calls[position]
        try:
            outcome = environment.execute(call, bus.next_index)
        except ToolCrash as exc:
            raise Stop("infrastructure_error", str(exc)) from exc
        bus.post(
            "environment",
            "assistant",
            visible_to=("assistant", "environment"),
            tool_call_id=call.id,
            tool_name=environment.presentation.real_name(call.name) or call.name,
            result=outcome.result,
            error=outcome.error,
            error_type=outcome.error_type,
            error_code=outcome.code,
            error_fields=dict(outcome.fields) or None,
            turn=turn,
            executed_arguments=outcome.executed_arguments,
        )
