"""The core modes, each a short configuration of `Conversation`.

- `dynamic` (ToolSandbox, AutoDE dynamic): on-policy. The user opens; the assistant acts; the
  user answers its text; the most recent recipient speaks next. The conversation ends when the
  user ends it, when its script is exhausted, or when it holds `scenario.max_turns` turns before
  the assistant would speak (`turn_limit`; a presentation may count the length its own way,
  checked before every step: `Presentation.budget_used`).
- `static` (ToolTalk's Algorithm 1): for every assistant turn of the reference conversation,
  rebuild the world by replaying the ground truth of the earlier turns, show the assistant the
  reference history so far plus the current user utterance, let it call tools (each executed,
  its result shown) until it answers in text or makes `max_calls_per_turn` calls, record what it
  did, then forget it and post the turn's reference calls, results and reply.
(AutoDE's modes are in `toolplay.methods.autode`.)

Static trajectories: every message carries the `turn` it belongs to (the index into
`scenario.reference`); `from_reference` tells the replayed reference (True) from the
assistant's predictions and their results (False). Within turn `t` the order is: the user's
utterance (reference), the predictions (assistant calls, environment results, the assistant's
closing text), then the reference calls, results and reply of turn `t`. The assistant's view
at turn `t` is the system prompt, every reference message of turns up to `t` and its own
predictions of turn `t`, so a scorer can re-read exactly what it saw. A turn that hit the call
cap ends the trajectory with `call_limit` (the other turns are still played). `changes` holds
only what the assistant's own calls changed, each recorded against the world of its turn: as
every turn starts from a rebuilt world, these do not compose into one history.

A presentation may bring its reference's executor (`Presentation.executor`, e.g. ToolTalk's):
it then runs the assistant's calls and the replay of the reference, and each ground-truth call
is posted with the arguments as that executor ran it (`executed_arguments` on its result), for
a presentation that shows calls that way.

Prompts: `--system-prompt` replaces the base prompt (the scenario's time, location and user
follow it); without it, a scenario that brings its own prompt (`metadata["system_prompt"]`,
ToolTalk's) keeps it in `dynamic` and `static` alike, so the two differ only in play.
"""

from __future__ import annotations

import functools
import json

from toolplay.conversation._acting import Stop
from toolplay.conversation._bus import MessageBus
from toolplay.conversation._conversation import Conversation
from toolplay.conversation._play import Mode, PlayRequest, StaticSettings
from toolplay.conversation._reference import (
    REFERENCE_USER,
    post_reply,
    post_user,
)
from toolplay.messages import Message, ToolCall, Trajectory
from toolplay.scenarios import CallExecutor, ReferenceTurn
from toolplay.tools import ToolCrash, ToolOutcome


async def play_dynamic(request: PlayRequest) -> Trajectory:
    """Play one conversation on-policy (see the module docstring)."""
    scenario = request.setup.scenario
    conversation = Conversation(
        request, request.presentation.system_prompt(scenario, *request.settings.prompt_parts)
    )
    try:
        while True:
            await conversation.user_says(max_turns=scenario.max_turns)
            await conversation.assistant_acts(max_turns=scenario.max_turns)
    except Stop as stop:
        return conversation.trajectory(stop, mode="dynamic")


async def play_static(request: PlayRequest) -> Trajectory:
    """Play every assistant turn of `scenario.reference` off-policy (module docstring)."""
    scenario = request.setup.scenario
    conversation = Conversation(
        request, request.presentation.system_prompt(scenario, *request.settings.prompt_parts)
    )
    shown = {real: name for name, real in conversation.presentation.names.items()}
    bus = conversation.bus
    executor = conversation.executor
    capped = False
    try:
        executed = _executed_reference(request, executor)
        for t, turn in enumerate(scenario.reference):
            if turn.user is not None:
                post_user(bus, turn.user, t)
            if turn.reply is None and not turn.calls:
                continue
            try:
                conversation.use_world(
                    request.setup.replay_reference(scenario.reference[:t], executor=executor)
                )
            except ToolCrash as exc:
                raise Stop("infrastructure_error", str(exc)) from exc
            acted = await conversation.assistant_acts(
                sees=functools.partial(_sees, turn=t),
                turn=t,
                cap=request.settings.of(StaticSettings).calls_per_turn,
            )
            capped = capped or acted.capped
            _post_reference(bus, turn, t, shown, executed)
    except Stop as stop:
        return conversation.trajectory(stop, mode="static", user=REFERENCE_USER)
    return conversation.trajectory(
        Stop("call_limit") if capped else None, mode="static", user=REFERENCE_USER
    )


def builtin_modes() -> list[Mode]:
    """The built-in modes, as the catalog registers them."""
    return [
        Mode("dynamic", play_dynamic, "On-policy play with a scripted or simulated user."),
        Mode(
            "static",
            play_static,
            "ToolTalk's static evaluation over reference prefixes.",
            StaticSettings,
        ),
    ]


def _sees(message: Message, turn: int) -> bool:
    """Whether the assistant sees `message` while predicting `turn`."""
    if "assistant" not in message.visible_to:
        return False
    return message.sender == "system" or message.from_reference or message.turn == turn


def _executed_reference(
    request: PlayRequest, executor: CallExecutor | None
) -> dict[tuple[int, int], str | None]:
    """How an executor ran each ground-truth call, by (turn, call): its executed arguments.

    A reference presentation may show the ground-truth calls as its reference's executor left
    them (ToolTalk's writes the session token in force into them). The replay is deterministic,
    so one replay of the whole reference gives what every turn's replay gives.
    """
    if executor is None:
        return {}
    outcomes: list[ToolOutcome] = []
    try:
        request.setup.replay_reference(executor=executor, outcomes=outcomes)
    except ToolCrash as exc:
        raise Stop("infrastructure_error", str(exc)) from exc
    positions = [
        (t, c)
        for t, turn in enumerate(request.setup.scenario.reference)
        for c in range(len(turn.calls))
    ]
    return {
        position: outcome.executed_arguments
        for position, outcome in zip(positions, outcomes, strict=True)
    }


def _post_reference(
    bus: MessageBus,
    turn: ReferenceTurn,
    t: int,
    shown: dict[str, str],
    executed: dict[tuple[int, int], str | None],
) -> None:
    """Append turn `t`'s ground-truth calls, their recorded outcomes and reply."""
    for c, call in enumerate(turn.calls):
        request = ToolCall(
            id=f"ref_{t}_{c}",
            name=shown.get(call.name, call.name),
            arguments=json.dumps(call.arguments, ensure_ascii=False),
        )
        bus.post(
            "assistant",
            "environment",
            visible_to=("assistant", "environment"),
            tool_calls=(request,),
            turn=t,
            from_reference=True,
        )
        bus.post(
            "environment",
            "assistant",
            visible_to=("assistant", "environment"),
            tool_call_id=request.id,
            tool_name=call.name,
            result=call.result,
            error=call.exception,
            error_type="tool_error" if call.exception is not None else None,
            turn=t,
            from_reference=True,
            executed_arguments=executed.get((t, c)),
        )
    if turn.reply is not None:
        post_reply(bus, turn.reply, t)
