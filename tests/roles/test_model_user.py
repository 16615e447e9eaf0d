"""The model-driven user: its prompt, its view, and how it speaks and ends (over real HTTP)."""

from __future__ import annotations

import asyncio
from typing import Any

from support import build_user, parse_scenario, play_dynamic
from toolplay.methods.toolsandbox import toolsandbox_prompts
from toolplay.roles import AssistantContext, AssistantTurn, prompt_texts_of
from toolplay.roles._model_user import (
    simulator_messages,
    user_system_prompt,
)
from toolplay.scenarios import Scenario
from toolplay.testing import (
    ChatServer,
    scripted,
    text,
    tool_calls,
)

OPTIONS = {"retry_initial": 0.001, "retry_jitter": 0.0, "max_retries": 1}


def scenario(**user: Any) -> Scenario:
    return parse_scenario(
        {"id": "u1", "world": {"domains": ["settings"]}, "user": user, "max_turns": 12}, "test"
    )


GOAL = scenario(
    goal="Get wifi turned on.",
    knowledge="You do not know your wifi password.",
    demonstrations=[{"messages": [{"role": "user", "content": "DEMO-LINE please"}]}],
)


class Echo:
    name = "echo"

    def __init__(self) -> None:
        self.seen: list[AssistantContext] = []

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        self.seen.append(context)
        return AssistantTurn(content="Sure, what else?")


def test_prompt_holds_goal_knowledge_and_demonstrations() -> None:
    prompt = user_system_prompt(GOAL)
    assert "Get wifi turned on." in prompt and "do not know your wifi password" in prompt
    assert "DEMO-LINE please" in prompt and "end_conversation" in prompt
    assert "never invent" in prompt


def test_without_a_goal_the_script_becomes_the_goal() -> None:
    prompt = user_system_prompt(scenario(script=["Turn wifi on.", "Thanks"]))
    assert "- Turn wifi on.\n- Thanks" in prompt


def test_roles_are_flipped_for_the_simulator() -> None:
    from toolplay.messages import Message

    view = (
        Message(index=1, sender="user", recipient="assistant", content="hi", visible_to=("user",)),
        Message(index=2, sender="assistant", recipient="user", content="yo", visible_to=("user",)),
    )
    messages = simulator_messages(GOAL, view)
    briefing = max(i for i, m in enumerate(messages) if m["role"] == "system")
    assert [(m["role"], m["content"]) for m in messages[briefing + 1 :]] == [
        ("assistant", "hi"),
        ("user", "yo"),
    ]
    opening = simulator_messages(GOAL, ())
    assert opening[-1]["role"] == "user"  # a nudge, so the model has something to answer


def test_the_user_speaks_then_ends_and_demonstrations_stay_private() -> None:
    replies = [text("Please turn on wifi."), tool_calls(("end_conversation", {}))]
    with ChatServer(scripted(replies)) as server:
        user = build_user("openai:sim", {"base_url": server.base_url, **OPTIONS})
        assistant = Echo()
        trajectory = asyncio.run(play_dynamic(GOAL, assistant, user))
        requests = [r.body for r in server.requests]
    assert trajectory.termination == "user_ended" and trajectory.user == "openai:sim"
    said = [m.content for m in trajectory.messages if m.sender == "user" and m.content]
    assert said == ["Please turn on wifi."]
    # as in the reference, end_conversation is offered once the assistant has spoken
    assert not requests[0].get("tools")
    assert [t["function"]["name"] for t in requests[1]["tools"]] == ["end_conversation"]
    seen_by_assistant = " ".join(
        m.content or "" for context in assistant.seen for m in context.messages
    )
    shown_to_user = [m["content"] for m in requests[0]["messages"]]
    assert "DEMO-LINE" not in seen_by_assistant and "DEMO-LINE please" in shown_to_user


def test_the_reference_briefing_demonstrations_then_instruction_and_goal() -> None:
    texts = toolsandbox_prompts()
    instruction = texts["user_instruction"]
    bare = scenario(goal="Get wifi turned on.", script=["Wifi on please"])
    messages = simulator_messages(bare, (), texts=prompt_texts_of(texts))
    default = texts["demonstrations"]["default"][0]["messages"]
    shown = [m for m in default if m.get("recipient") != "environment"]
    # the reference's default demonstration first, its own briefing a system message
    assert messages[0] == {"role": "system", "content": instruction + default[0]["content"]}
    flipped = {"user": "assistant", "assistant": "user", "system": "system"}
    assert [m["role"] for m in messages[: len(shown)]] == [flipped[m["role"]] for m in shown]
    # the demonstration's end_conversation() call is dropped, as the reference's chat does
    assert all(m["content"] != "end_conversation()" for m in messages)
    assert messages[len(shown)] == {
        "role": "system",
        "content": instruction + "Get wifi turned on.",
    }
    # a scenario's own demonstrations replace the default ones
    own = simulator_messages(GOAL, (), texts=prompt_texts_of(texts))
    assert own[0] == {"role": "assistant", "content": "DEMO-LINE please"}
    assert own[1]["content"].endswith("Get wifi turned on.\nYou do not know your wifi password.")


def test_toolplays_own_briefing_stays_available() -> None:
    messages = simulator_messages(GOAL, (), style="toolplay")
    assert messages[0] == {"role": "system", "content": user_system_prompt(GOAL)}


def test_a_scripted_opening_is_said_verbatim_without_a_model_call() -> None:
    with ChatServer(scripted([tool_calls(("end_conversation", {}))])) as server:
        user = build_user("openai:sim", {"base_url": server.base_url, **OPTIONS})
        opened = scenario(goal="Wifi on.", script=["Turn on wifi, please."])
        trajectory = asyncio.run(play_dynamic(opened, Echo(), user))
        assert len(server.requests) == 1  # only after the assistant answered
    assert trajectory.messages[1].content == "Turn on wifi, please."
    assert trajectory.termination == "user_ended"


def test_user_settings_prefer_user_options_and_never_hold_the_key(monkeypatch: Any) -> None:
    monkeypatch.setenv("SIM_KEY", "sk-user-secret")
    user = build_user(
        "openai:sim",
        {
            "base_url": "http://a/v1",
            "user_base_url": "http://b/v1",
            "user_temperature": 0.7,
            "user_api_key_env": "SIM_KEY",
            "seed": 3,
        },
    )
    settings = user.settings  # type: ignore[attr-defined]
    assert settings["base_url"] == "http://b/v1" and settings["temperature"] == 0.7
    assert settings["seed"] == 3 and settings["api_key_env"] == "SIM_KEY"
    assert "sk-user-secret" not in repr(settings)


def test_a_failing_simulator_is_an_infrastructure_error() -> None:
    with ChatServer(scripted([text("x")]), api_key="right") as server:
        user = build_user("openai:sim", {"base_url": server.base_url, **OPTIONS})
        trajectory = asyncio.run(play_dynamic(GOAL, Echo(), user))
    assert trajectory.termination == "infrastructure_error"
    assert "HTTP 401" in (trajectory.error or "")
