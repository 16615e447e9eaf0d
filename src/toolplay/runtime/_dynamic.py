"""Dynamic (on-policy) play: the assistant's own calls change the world and its replies shape
the user's next message. The most recent recipient speaks next.

The conversation ends when the user ends it, when the script is exhausted, or when it holds
`scenario.max_turns` messages (system messages not counted); the reason is recorded. Faults are
classified: a user simulator or endpoint fault and a crashing tool are infrastructure errors,
an exception raised by the assistant itself is an assistant error.

Without `--system-prompt`, a scenario that brings its own prompt (`metadata["system_prompt"]`,
ToolTalk's) keeps it, exactly as in static mode, so the two modes differ only in play.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolplay.messages import Role, ToolCall, Trajectory, Usage
from toolplay.roles import Assistant, RoleContext, User
from toolplay.runtime._acting import Stop, ask_assistant, post_answer, run_calls
from toolplay.runtime._bus import MessageBus
from toolplay.runtime._environment import Environment
from toolplay.runtime._prompts import scenario_prompt
from toolplay.scenarios import Scenario, build_world, scenario_registry
from toolplay.tools import ToolPresentation, present

END_CONVERSATION = "end_conversation"


async def play_dynamic(
    scenario: Scenario,
    assistant: Assistant,
    user: User,
    *,
    trial: int = 0,
    base_prompt: str | None = None,
    augment: Sequence[str] = (),
) -> Trajectory:
    """Play one conversation on-policy and return its trajectory.

    `augment` names tool augmentations (see `toolplay.tools.AUGMENTATIONS`) applied on top of
    the scenario's own `augmentation`.
    """
    world = build_world(scenario)
    offered = scenario_registry(scenario).select(scenario.tools.allow, scenario.tools.deny)
    presentation = offered_tools(scenario, augment)
    environment = Environment(world, offered, presentation)
    bus = MessageBus()
    prompt = scenario_prompt(scenario, base_prompt)
    bus.post("system", "assistant", visible_to=("assistant",), content=prompt)
    usage = Usage()
    speaker: Role = "user"
    termination = "completed"
    error: str | None = None
    tools = presentation.schemas
    try:
        while True:
            if speaker == "user":
                try:
                    said = await user.respond(RoleContext(scenario, bus.view("user")))
                except Exception as exc:
                    raise Stop("infrastructure_error", f"user failed: {exc!r}") from exc
                usage = usage.add(said.usage)
                if said.end is not None:
                    if said.end == "user_ended":
                        call = ToolCall(id="end", name=END_CONVERSATION, arguments="{}")
                        bus.post("user", "environment", visible_to=("user",), tool_calls=(call,))
                    raise Stop(said.end)
                bus.post(
                    "user",
                    "assistant",
                    visible_to=("user", "assistant"),
                    content=said.content or "",
                )
                speaker = "assistant"
            elif speaker == "assistant":
                if _turns(bus) >= scenario.max_turns:
                    raise Stop("turn_limit")
                context = RoleContext(
                    scenario, bus.view("assistant"), tools, prompt, renamed(presentation)
                )
                answer = await ask_assistant(assistant, context)
                usage = usage.add(answer.usage)
                post_answer(bus, answer)
                speaker = "environment" if answer.tool_calls else "user"
            else:
                run_calls(bus, environment)
                speaker = "assistant"
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
        user=user.name,
        mode="dynamic",
        tool_names=renamed(presentation),
    )


def offered_tools(scenario: Scenario, augment: Sequence[str] = ()) -> ToolPresentation:
    """The tools a scenario offers, as the assistant sees them.

    `scenario.augmentation` may join several augmentations with `+`. Distraction tools come
    from every tool the world can run except those the scenario denies (a withheld tool must
    not come back as a distraction).
    """
    full = scenario_registry(scenario)
    offered = full.select(scenario.tools.allow, scenario.tools.deny)
    own = scenario.augmentation.split("+") if scenario.augmentation else []
    return present(offered, own + list(augment), full.select(None, scenario.tools.deny))


def renamed(presentation: ToolPresentation) -> dict[str, str]:
    """The shown→real names that differ (empty when no tool was renamed)."""
    return {shown: real for shown, real in presentation.names.items() if shown != real}


def _turns(bus: MessageBus) -> int:
    return sum(1 for m in bus.messages if m.sender != "system")
