"""AutoDE's static mode: a reference dialogue ending on a user turn, then a forced call.

Unlike ToolTalk's static mode (one prediction per reference turn), AutoDE asks one question
per dialogue: given the reference history up to the moment every slot value has been said
(the script's first query, the reference clarification questions and the user's answers,
all from `scenario.reference`), which call does the assistant make? So:

1. the history is the system prompt plus the user and assistant text of the reference up to
   and including the last turn's user utterance (no reference calls are shown);
2. the assistant's first answer is asked for with `force_tool_call` (model roles constrain
   their output to a tool call; a role that answers in text anyway is recorded as is and
   scores `never_called`);
3. its calls run on a fresh world with their results shown, and it may go on (unforced) -
   lookups first, then the call - until it answers in text or makes `max_calls` calls.

The prediction scored is its first call to the label's function, as in dynamic mode. Messages
from the reference carry `from_reference=True`; every message carries `turn` = the reference
turn it belongs to.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolplay.messages import Trajectory, Usage
from toolplay.roles import Assistant, RoleContext
from toolplay.runtime._acting import Stop, ask_assistant, post_answer, run_calls
from toolplay.runtime._bus import MessageBus
from toolplay.runtime._dynamic import offered_tools, renamed
from toolplay.runtime._environment import Environment
from toolplay.runtime._prompts import system_prompt
from toolplay.scenarios import Scenario, build_world, scenario_registry

REFERENCE_USER = "reference"
"""The user recorded for static trajectories: the reference's own utterances."""


def _post_history(bus: MessageBus, scenario: Scenario) -> int:
    """Post the reference text up to the last user utterance; return that turn's index."""
    last = len(scenario.reference) - 1
    for t, turn in enumerate(scenario.reference):
        if turn.user is not None:
            bus.post(
                "user",
                "assistant",
                visible_to=("user", "assistant"),
                content=turn.user,
                turn=t,
                from_reference=True,
            )
        if t < last and turn.reply is not None:
            bus.post(
                "assistant",
                "user",
                visible_to=("user", "assistant"),
                content=turn.reply,
                turn=t,
                from_reference=True,
            )
    return last


async def play_autode_static(
    scenario: Scenario,
    assistant: Assistant,
    *,
    trial: int = 0,
    base_prompt: str | None = None,
    augment: Sequence[str] = (),
    max_calls: int = 20,
) -> Trajectory:
    """Play AutoDE's static variant of a slots scenario; see the module docstring."""
    if max_calls < 1:
        raise ValueError("max_calls must be at least 1")
    if not scenario.reference:
        raise ValueError(f"{scenario.id}: static mode needs a reference dialogue")
    world = build_world(scenario)
    offered = scenario_registry(scenario).select(scenario.tools.allow, scenario.tools.deny)
    presentation = offered_tools(scenario, augment)
    environment = Environment(world, offered, presentation)
    prompt = system_prompt(scenario, base_prompt)
    bus = MessageBus()
    bus.post("system", "assistant", visible_to=("assistant",), content=prompt)
    turn = _post_history(bus, scenario)
    usage = Usage()
    termination = "completed"
    error: str | None = None
    made = 0
    try:
        while True:
            if made >= max_calls:
                raise Stop("call_limit", f"{made} tool calls without a reply")
            context = RoleContext(
                scenario,
                bus.view("assistant"),
                presentation.schemas,
                prompt,
                renamed(presentation),
                force_tool_call=made == 0,
            )
            answer = await ask_assistant(assistant, context)
            usage = usage.add(answer.usage)
            post_answer(bus, answer, turn)
            if not answer.tool_calls:
                break
            run_calls(bus, environment, turn)
            made += len(answer.tool_calls)
    except Stop as stop:
        termination, error = stop.reason, stop.error
    return Trajectory(
        scenario_id=scenario.id,
        trial=trial,
        messages=bus.messages,
        changes=world.changes,
        termination=termination,  # type: ignore[arg-type]
        error=error,
        usage=usage,
        assistant=assistant.name,
        user=REFERENCE_USER,
        mode="static",
        tool_names=renamed(presentation),
    )
