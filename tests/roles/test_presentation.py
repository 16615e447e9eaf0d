"""The presentation: what a chat model is sent and how its answer is read (toolplay's own)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from support import CATALOG, load_suite, play
from toolplay.clients import ChatReply, ModelOptions, parse_completion, to_functions, to_tools
from toolplay.clients._wire import WireError
from toolplay.conversation import PlaySettings
from toolplay.messages import Message, ToolCall
from toolplay.methods.toolsandbox import toolsandbox_prompts
from toolplay.roles import AssistantContext, OracleAssistant, Presentation, ScriptedUser
from toolplay.runs import RunConfig

SCENARIO = load_suite("quick").scenarios[0]
TOOLPLAY = CATALOG.presentation("toolplay")


def default_system_prompt() -> str:
    return TOOLPLAY.prompt_texts.agent_system_prompt


def system_prompt(scenario: Any, base: str | None = None, context: bool = False) -> str:
    return TOOLPLAY.system_prompt(scenario, base, context, own=False)


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


def test_a_scenario_with_its_own_prompt_keeps_it_unless_told_otherwise() -> None:
    own = SCENARIO.model_copy(update={"metadata": {"system_prompt": "Mine."}})
    assert TOOLPLAY.system_prompt(own) == "Mine."
    assert TOOLPLAY.system_prompt(own, own=False) == default_system_prompt()
    assert TOOLPLAY.system_prompt(own, "Base.") == "Base."


CALL = ToolCall(id="c1", name="get_wifi_status", arguments='{"x": 1}')
VIEW = (
    Message(index=0, sender="system", recipient="assistant", content="Be helpful."),
    Message(index=1, sender="user", recipient="assistant", content="Wifi?"),
    Message(index=2, sender="assistant", recipient="environment", tool_calls=(CALL,)),
    Message(
        index=3,
        sender="environment",
        recipient="assistant",
        tool_call_id="c1",
        tool_name="get_wifi_status",
        result={"on": True},
    ),
)
TOOLS = ({"type": "function", "function": {"name": "get_wifi_status", "parameters": {}}},)


def context(force: bool = False) -> AssistantContext:
    return AssistantContext("s", 0, VIEW, TOOLS, "Be helpful.", force_tool_call=force)


def settings(presentation: Presentation, **options: Any) -> Any:
    return presentation.settings(ModelOptions(**options).resolve())


def test_toolplay_sends_temperature_zero_unless_told_and_a_reference_none() -> None:
    body = TOOLPLAY.assistant_request("m", settings(TOOLPLAY), context())
    assert list(body) == ["model", "messages", "temperature", "tools"]
    assert body["temperature"] == 0.0
    assert (
        TOOLPLAY.assistant_request("m", settings(TOOLPLAY, temperature=0.7), context())[
            "temperature"
        ]
        == 0.7
    )
    silent = Presentation(name="silent", default_temperature=None)
    assert "temperature" not in silent.assistant_request("m", settings(silent), context())


def test_the_legacy_wire_carries_the_same_content() -> None:
    tools = TOOLPLAY.assistant_request("m", settings(TOOLPLAY), context(force=False))
    legacy = TOOLPLAY.assistant_request("m", settings(TOOLPLAY, wire="functions"), context())
    assert list(legacy) == ["model", "messages", "temperature", "functions"]
    assert legacy["functions"] == [t["function"] for t in tools["tools"]]
    call, result = legacy["messages"][2], legacy["messages"][3]
    assert call == {
        "role": "assistant",
        "content": None,
        "function_call": {"name": "get_wifi_status", "arguments": '{"x": 1}'},
    }
    assert result == {"role": "function", "name": "get_wifi_status", "content": '{"on": true}'}
    back = to_tools(legacy)
    assert back["tools"] == tools["tools"]
    assert [m["role"] for m in back["messages"]] == [m["role"] for m in tools["messages"]]
    assert back["messages"][3]["tool_call_id"] == back["messages"][2]["tool_calls"][0]["id"]


def test_forcing_a_call_on_the_legacy_wire_needs_a_named_function() -> None:
    with pytest.raises(WireError, match="name a function"):
        TOOLPLAY.assistant_request("m", settings(TOOLPLAY, wire="functions"), context(True))
    named = {"type": "function", "function": {"name": "f"}}
    assert to_functions({"tool_choice": named})["function_call"] == {"name": "f"}


def test_a_legacy_function_call_reply_is_read_as_one_call() -> None:
    body = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "content": None,
                    "function_call": {"name": "f", "arguments": '{"a": 1}'},
                }
            }
        ]
    }
    reply = parse_completion(body, first_call_number=4)
    assert reply == ChatReply(
        content=None,
        tool_calls=(ToolCall(id="call_4", name="f", arguments='{"a": 1}'),),
        usage=reply.usage,
    )


def test_runs_record_their_presentation_and_old_configs_were_toolplays() -> None:
    assert RunConfig.model_validate({"version": 4, "suite": "quick"}).presentation == "toolplay"
    assert RunConfig.model_validate({"version": 2, "suite": "quick"}).presentation == "toolplay"
    assert RunConfig(suite="quick").presentation is None  # resolved when the run starts


def test_an_unknown_presentation_is_refused_naming_the_known_ones(tmp_path: Any) -> None:
    from toolplay.runs import RunError, execute_run

    config = RunConfig(suite="quick", presentation="nope", out=tmp_path / "run")
    with pytest.raises(RunError, match="--presentation: unknown presentation 'nope'; known: "):
        asyncio.run(execute_run(config, catalog=CATALOG))
    assert not (tmp_path / "run").exists()


def test_the_request_is_plain_json() -> None:
    body = TOOLPLAY.assistant_request("m", settings(TOOLPLAY), context())
    assert json.loads(json.dumps(body)) == body


def test_a_model_user_s_answer_is_taken_as_the_presentation_reads_it() -> None:
    from toolplay.roles import UserContext

    scenario = load_suite("quick").scenarios[0]
    reply = ChatReply(content="  hi [x] ", tool_calls=(ToolCall(id="e", name="f", arguments=""),))
    assert TOOLPLAY.read_user_reply(reply, UserContext(scenario, 0, ())) == reply
