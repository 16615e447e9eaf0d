"""Issue 14 item 14: what `max_turns` means, against `turn_count` (one definition).

The assistant is never asked once the conversation holds `max_turns` turns; the results of its
last message are still posted, so `turn_count` passes the limit by exactly those results."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from support import load_suite, play_dynamic, score
from toolplay.messages import Message, ToolCall, turn_count
from toolplay.roles import AssistantContext, AssistantTurn, ScriptedUser

WIFI = next(s for s in load_suite("quick").scenarios if s.id == "quick_wifi_on")


class Looping:
    """Calls `get_wifi_status` `width` times in every message, forever."""

    name = "looping"

    def __init__(self, width: int) -> None:
        self.width = width
        self.asked_at: list[int] = []

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        self.asked_at.append(turn_count(context.messages))
        calls = tuple(
            ToolCall(id=f"c{len(self.asked_at)}_{i}", name="get_wifi_status", arguments="{}")
            for i in range(self.width)
        )
        return AssistantTurn(tool_calls=calls)


def test_max_turns_16_after_single_calls_counts_17() -> None:
    assert WIFI.max_turns == 16
    assistant = Looping(1)
    trajectory = asyncio.run(play_dynamic(WIFI, assistant, ScriptedUser()))
    assert trajectory.termination == "turn_limit"
    assert turn_count(trajectory.messages) == 17
    assert score(WIFI, trajectory).evidence.turn_count == 17  # type: ignore[union-attr]


@settings(max_examples=12, deadline=None)
@given(limit=st.integers(min_value=2, max_value=12), width=st.integers(min_value=1, max_value=3))
def test_the_assistant_is_never_asked_at_or_past_the_limit(limit: int, width: int) -> None:
    scenario = WIFI.model_copy(update={"max_turns": limit})
    assistant = Looping(width)
    trajectory = asyncio.run(play_dynamic(scenario, assistant, ScriptedUser()))
    assert trajectory.termination == "turn_limit"
    assert assistant.asked_at and all(at < limit for at in assistant.asked_at)
    count = turn_count(trajectory.messages)
    # the last message's calls and their results are what passes the limit, nothing else
    assert limit <= count <= assistant.asked_at[-1] + 1 + width
    last: Message = [m for m in trajectory.messages if m.sender == "assistant"][-1]
    assert len(last.tool_calls) == width
