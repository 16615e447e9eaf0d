"""The general hooks of `Conversation.assistant_acts`: `ends_on` and `max_answers`, and the
run's user instructions reaching the user through `UserContext`."""

from __future__ import annotations

import asyncio

import pytest

import support
from toolplay.conversation import Conversation, PlayRequest, PlaySettings, Stop
from toolplay.messages import ToolCall
from toolplay.roles import AssistantContext, AssistantTurn, UserContext, UserTurn

SCENARIO = support.parse_scenario(
    {
        "id": "hooks",
        "world": {"domains": ["settings"]},
        "user": {"script": ["Turn wifi off please."]},
        "reference": [
            {
                "user": "Turn wifi off please.",
                "calls": [{"name": "set_wifi_status", "arguments": {"on": False}}],
            }
        ],
    },
    "test",
)


class Calls:
    """Answers with one call per answer, by name, in order (then repeats the last)."""

    name = "calls"

    def __init__(self, *names: str) -> None:
        self.names = names
        self.asked = 0

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        name = self.names[min(self.asked, len(self.names) - 1)]
        self.asked += 1
        arguments = {"on": False} if name.startswith("set_") else {}
        return AssistantTurn(tool_calls=(ToolCall.from_args(f"c{self.asked}", name, arguments),))


class Listener:
    """A user who remembers the instructions it was given."""

    name = "listener"

    def __init__(self) -> None:
        self.instructions: list[str | None] = []

    async def respond(self, context: UserContext) -> UserTurn:
        self.instructions.append(context.instructions)
        return UserTurn(content=context.scenario.script[0])


def conversation(assistant: Calls, user: Listener | None = None, **settings: str) -> Conversation:
    request = PlayRequest(
        support.setup(SCENARIO), assistant, user or Listener(), settings=PlaySettings(**settings)
    )
    return Conversation(request, "prompt")


def test_ends_on_stops_after_the_message_holding_such_a_call() -> None:
    assistant = Calls("get_wifi_status", "set_wifi_status", "get_wifi_status")
    talk = conversation(assistant)
    acted = asyncio.run(talk.assistant_acts(ends_on=lambda name: name == "set_wifi_status"))
    assert acted.ended and acted.calls == 2 and assistant.asked == 2 and talk.answers == 2
    assert talk.bus.messages[-1].tool_name == "set_wifi_status"  # its call was executed


def test_max_answers_counts_every_answer_of_the_conversation() -> None:
    assistant = Calls("get_wifi_status")
    talk = conversation(assistant)
    with pytest.raises(Stop) as stop:
        asyncio.run(talk.assistant_acts(max_answers=3))
    assert stop.value.reason == "turn_limit" and assistant.asked == 3
    with pytest.raises(Stop):  # the answers are counted over the whole conversation
        asyncio.run(talk.assistant_acts(max_answers=3))
    assert assistant.asked == 3


def test_the_runs_user_instructions_reach_the_user() -> None:
    user = Listener()
    asyncio.run(conversation(Calls("x"), user, user_prompt="Be brief.").user_says())
    asyncio.run(conversation(Calls("x"), user).user_says())
    assert user.instructions == ["Be brief.", None]
