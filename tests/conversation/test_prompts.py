"""The assistant's system prompt: the ToolSandbox reference's by default, context on request."""

from __future__ import annotations

import asyncio

from support import load_suite, play
from toolplay.conversation import PlaySettings, default_system_prompt, system_prompt
from toolplay.methods.toolsandbox import toolsandbox_prompts
from toolplay.roles import OracleAssistant, ScriptedUser

SCENARIO = load_suite("quick").scenarios[0]


def test_the_default_is_the_reference_prompt_read_from_the_exported_data() -> None:
    assert default_system_prompt() == toolsandbox_prompts()["agent_system_prompt"]
    assert system_prompt(SCENARIO) == default_system_prompt()  # no persona, no clock


def test_context_appends_time_location_and_user() -> None:
    prompt = system_prompt(SCENARIO, context=True)
    assert prompt.startswith(default_system_prompt() + "\nCurrent time: ")
    assert SCENARIO.world.clock.strftime("%Y-%m-%d %H:%M:%S") in prompt
    own = system_prompt(SCENARIO, "Be brief.", context=True)
    assert own.startswith("Be brief.\nCurrent time: ")


def test_the_setting_reaches_the_conversation() -> None:
    for context in (False, True):
        settings = PlaySettings(prompt_context=context)
        played = asyncio.run(
            play("dynamic", SCENARIO, OracleAssistant(), ScriptedUser(), settings=settings)
        )
        first = played.messages[0]
        assert first.sender == "system" and first.content == system_prompt(
            SCENARIO, context=context
        )
