"""AutoDE's loop, built from the conversation's steps: the first call to a tool that ends the
dialogue stops it, and the round limit counts every answer of the dialogue."""

from __future__ import annotations

import asyncio

import pytest

import support
from toolplay.conversation import Conversation, PlayRequest, Stop
from toolplay.methods.autode import act_until_call
from toolplay.roles import ScriptedUser

SCENARIO = support.wifi_off_scenario()
Calls = support.Calls


def conversation(assistant: Calls) -> Conversation:
    return Conversation(PlayRequest(support.setup(SCENARIO), assistant, ScriptedUser()), "prompt")


def test_the_first_ending_call_stops_after_its_message() -> None:
    assistant = Calls("get_wifi_status", "set_wifi_status", "get_wifi_status")
    talk = conversation(assistant)
    called = asyncio.run(act_until_call(talk, lambda name: name == "set_wifi_status", 8))
    calls = sum(len(m.tool_calls) for m in talk.bus.messages)
    assert called and calls == 2 and assistant.asked == 2 and talk.answers == 2
    assert talk.bus.messages[-1].tool_name == "set_wifi_status"  # its call was executed
    assert talk.changes  # the ending call changed the world, recorded with the trajectory


def test_the_round_limit_counts_every_answer_of_the_dialogue() -> None:
    assistant = Calls("get_wifi_status")
    talk = conversation(assistant)
    with pytest.raises(Stop) as stop:
        asyncio.run(act_until_call(talk, lambda name: False, 3))
    assert stop.value.reason == "turn_limit" and assistant.asked == 3
    with pytest.raises(Stop):  # the answers are counted over the whole conversation
        asyncio.run(act_until_call(talk, lambda name: False, 3))
    assert assistant.asked == 3


def test_only_the_first_answer_is_forced() -> None:
    assistant = Calls("get_wifi_status", "set_wifi_status")
    talk = conversation(assistant)
    asyncio.run(
        act_until_call(talk, lambda name: name.startswith("set_"), 8, force_first_call=True)
    )
    assert assistant.forced == [True, False]
