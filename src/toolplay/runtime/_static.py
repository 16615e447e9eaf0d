"""Static (off-policy) play, ToolTalk's Algorithm 1.

For every assistant turn of the reference conversation, in order:

1. build a fresh world and replay the ground-truth calls of all earlier turns on it (ids come
   out as recorded because every tool's id generator starts afresh with the world);
2. show the assistant the reference history so far (user words, ground-truth calls with their
   recorded results, ground-truth replies; a turn's calls come before its reply) plus the
   current user utterance;
3. let it call tools, each executed on that world with its result shown, until it answers in
   text, or until it has made `max_calls_per_turn` calls;
4. record what it did, then forget it: the next turn starts again from the reference.

The trajectory is one message list in conversation order. Every message carries the `turn` it
belongs to (the index into `scenario.reference`); `from_reference` tells the replayed reference
(True) from the assistant's predictions and their results (False). Within turn `t` the order is:
the user's utterance (reference), the predictions (assistant calls, environment results, the
assistant's closing text), then the reference calls, results and reply of turn `t`. The
assistant's view at turn `t` is the system prompt, every reference message of turns up to `t`
and its own predictions of turn `t`, so a scorer can re-read exactly what it saw.

A turn that hit the call cap has no predicted reply; the trajectory then ends with the
termination `call_limit` (the other turns are still played). An assistant error ends the
conversation (`assistant_error`, scored with what was predicted so far); a tool crash or an
unreachable model ends it as `infrastructure_error` (never scored).

`changes` holds only what the assistant's own calls changed, each recorded against the world of
its turn; as every turn starts from a rebuilt world, these changes do not compose into one
history (`replay_changes` does not apply to static trajectories).

The system prompt is `--system-prompt` followed by the scenario's time, location and user when
given; otherwise the scenario's own `metadata["system_prompt"]` (ToolTalk's, for imported
conversations); otherwise the default prompt.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from toolplay.messages import Message, ToolCall, Trajectory, Usage, WorldChange
from toolplay.roles import Assistant, RoleContext
from toolplay.runtime._acting import Stop, ask_assistant, post_answer, run_calls
from toolplay.runtime._bus import MessageBus
from toolplay.runtime._dynamic import offered_tools, renamed
from toolplay.runtime._environment import Environment
from toolplay.runtime._prompts import scenario_prompt
from toolplay.scenarios import ReferenceTurn, Scenario, build_world, scenario_registry
from toolplay.tools import Registry, ToolCrash, ToolPresentation
from toolplay.world import World

DEFAULT_MAX_CALLS_PER_TURN = 20
"""Tool calls an assistant may make in one turn before the turn is cut (the reference had no
cap; the largest ground-truth turn of ToolTalk has 7 calls)."""

REFERENCE_USER = "reference"
"""The user recorded for static trajectories: the reference's own utterances."""


def static_prompt(scenario: Scenario, base_prompt: str | None = None) -> str:
    """The system prompt of a static run (see the module docstring); the same in dynamic play."""
    return scenario_prompt(scenario, base_prompt)


def replay_reference(
    scenario: Scenario, registry: Registry, turns: Sequence[ReferenceTurn]
) -> World:
    """A fresh world with the ground-truth calls of `turns` replayed on it, in order.

    Raises:
        ToolCrash: a reference call crashed a tool (a harness bug).
    """
    world = build_world(scenario)
    for t, turn in enumerate(turns):
        for c, call in enumerate(turn.calls):
            registry.execute(world, ToolCall.from_args(f"ref_{t}_{c}", call.name, call.arguments))
    return world


async def play_static(
    scenario: Scenario,
    assistant: Assistant,
    *,
    trial: int = 0,
    base_prompt: str | None = None,
    augment: Sequence[str] = (),
    max_calls_per_turn: int = DEFAULT_MAX_CALLS_PER_TURN,
) -> Trajectory:
    """Play every assistant turn of `scenario.reference` off-policy; see the module docstring."""
    if max_calls_per_turn < 1:
        raise ValueError("max_calls_per_turn must be at least 1")
    registry = scenario_registry(scenario)
    offered = registry.select(scenario.tools.allow, scenario.tools.deny)
    presentation = offered_tools(scenario, augment)
    shown = {real: name for name, real in presentation.names.items()}
    prompt = static_prompt(scenario, base_prompt)
    bus = MessageBus()
    bus.post("system", "assistant", visible_to=("assistant",), content=prompt)
    changes: list[WorldChange] = []
    usage = Usage()
    termination = "completed"
    error: str | None = None
    try:
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
            if turn.reply is None and not turn.calls:
                continue
            try:
                world = replay_reference(scenario, registry, scenario.reference[:t])
            except ToolCrash as exc:
                raise Stop("infrastructure_error", str(exc)) from exc
            played = await _predict_turn(
                scenario,
                assistant,
                bus,
                world,
                offered,
                presentation,
                prompt,
                t,
                max_calls_per_turn,
            )
            usage = usage.add(played.usage)
            changes += played.changes
            if played.capped:
                termination = "call_limit"
            _post_reference(bus, turn, t, shown)
    except Stop as stop:
        termination, error = stop.reason, stop.error
    return Trajectory(
        scenario_id=scenario.id,
        trial=trial,
        messages=bus.messages,
        changes=changes,
        termination=termination,  # type: ignore[arg-type]
        error=error,
        usage=usage,
        assistant=assistant.name,
        user=REFERENCE_USER,
        mode="static",
        tool_names=renamed(presentation),
    )


class _Turn:
    def __init__(self, usage: Usage, changes: list[WorldChange], capped: bool) -> None:
        self.usage = usage
        self.changes = changes
        self.capped = capped


async def _predict_turn(
    scenario: Scenario,
    assistant: Assistant,
    bus: MessageBus,
    world: World,
    offered: Registry,
    presentation: ToolPresentation,
    prompt: str,
    turn: int,
    cap: int,
) -> _Turn:
    """Let the assistant act on `world` until it answers in text or reaches the cap."""
    environment = Environment(world, offered, presentation)
    first_change = len(world.changes)
    usage = Usage()
    made = 0
    while made < cap:
        view = tuple(m for m in bus.messages if _sees(m, turn))
        context = RoleContext(scenario, view, presentation.schemas, prompt, renamed(presentation))
        answer = await ask_assistant(assistant, context)
        usage = usage.add(answer.usage)
        post_answer(bus, answer, turn)
        if not answer.tool_calls:
            return _Turn(usage, list(world.changes[first_change:]), capped=False)
        run_calls(bus, environment, turn)
        made += len(answer.tool_calls)
    return _Turn(usage, list(world.changes[first_change:]), capped=True)


def _sees(message: Message, turn: int) -> bool:
    """Whether the assistant sees `message` while predicting `turn`."""
    if "assistant" not in message.visible_to:
        return False
    return message.sender == "system" or message.from_reference or message.turn == turn


def _post_reference(bus: MessageBus, turn: ReferenceTurn, t: int, shown: dict[str, str]) -> None:
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
        )
    if turn.reply is not None:
        bus.post(
            "assistant",
            "user",
            visible_to=("user", "assistant"),
            content=turn.reply,
            turn=t,
            from_reference=True,
        )
