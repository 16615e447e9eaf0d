"""`autode-static`: AutoDE's static variant for toolplay's own user scripts.

The reference dialogue up to its last user turn, then one forced call; the assistant may go on
(lookups first, then the call) until it answers in text or makes `max_calls_per_turn` calls.
(The official data's protocol is `_protocol`.)
"""

from __future__ import annotations

from toolplay.conversation import REFERENCE_USER, Conversation, PlayRequest, StaticSettings, Stop
from toolplay.messages import Trajectory
from toolplay.methods.autode._loop import post_dialogue


async def play_autode_static(request: PlayRequest) -> Trajectory:
    """Play AutoDE's static variant of a dialogue (see the module docstring)."""
    scenario = request.setup.scenario
    if not scenario.reference:
        raise ValueError(f"{scenario.id}: static mode needs a reference dialogue")
    prompt = request.presentation.system_prompt(scenario, *request.settings.prompt_parts, own=False)
    conversation = Conversation(request, prompt)
    last = post_dialogue(conversation.bus, scenario.reference)
    cap = request.settings.of(StaticSettings).calls_per_turn
    ended: Stop | None = None
    made = 0
    try:
        while made < cap:
            answer = await conversation.ask(turn=last, force_call=made == 0)
            if not answer.tool_calls:
                break
            conversation.run_calls(last)
            made += len(answer.tool_calls)
        else:
            ended = Stop("call_limit", f"{made} tool calls without a reply")
    except Stop as stop:
        ended = stop
    return conversation.trajectory(ended, mode="static", user=REFERENCE_USER)
