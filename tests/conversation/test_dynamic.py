"""Dynamic play: who speaks next, what each role sees, why conversations end."""

from __future__ import annotations

import asyncio
from typing import Any

from support import parse_scenario, play_dynamic
from toolplay.messages import ToolCall
from toolplay.roles import (
    AssistantContext,
    AssistantError,
    AssistantTurn,
    InfrastructureError,
    OracleAssistant,
    ScriptedUser,
    UserTurn,
)
from toolplay.scenarios import Scenario


def scenario(**overrides: Any) -> Scenario:
    data: dict[str, Any] = {
        "id": "s1",
        "world": {"domains": ["settings", "contacts", "messaging"]},
        "user": {"script": ["Turn wifi off please.", "Thanks!"]},
        "reference": [
            {
                "user": "Turn wifi off please.",
                "calls": [{"name": "set_wifi_status", "arguments": {"on": False}}],
                "reply": "Done.",
            },
            {"user": "Thanks!", "reply": "You're welcome."},
        ],
    }
    data.update(overrides)
    return parse_scenario(data, "test")


class Scripted:
    """An assistant that plays a fixed list of turns, then repeats the last."""

    name = "scripted-assistant"

    def __init__(self, *turns: AssistantTurn) -> None:
        self.turns = list(turns)
        self.seen: list[AssistantContext] = []

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        self.seen.append(context)
        return self.turns.pop(0) if len(self.turns) > 1 else self.turns[0]


def play(sc: Scenario, assistant: Any, user: Any = None) -> Any:
    return asyncio.run(play_dynamic(sc, assistant, user or ScriptedUser()))


def test_oracle_with_scripted_user_runs_to_script_exhaustion() -> None:
    trajectory = play(scenario(), OracleAssistant())
    assert trajectory.termination == "script_exhausted"
    flow = [(m.sender, m.recipient) for m in trajectory.messages]
    assert flow == [
        ("system", "assistant"),
        ("user", "assistant"),
        ("assistant", "environment"),
        ("environment", "assistant"),
        ("assistant", "user"),
        ("user", "assistant"),
        ("assistant", "user"),
    ]
    assert [c.table for c in trajectory.changes] == ["settings"]
    assert trajectory.changes[0].index == 3  # recorded against the tool result message


def test_each_role_sees_only_its_view() -> None:
    seen_by_user: list[AssistantContext] = []

    class Watching(ScriptedUser):
        async def respond(self, context: AssistantContext) -> UserTurn:
            seen_by_user.append(context)
            return await super().respond(context)

    assistant = Scripted(
        AssistantTurn(tool_calls=(ToolCall(id="a", name="get_wifi_status", arguments="{}"),)),
        AssistantTurn(content="Wifi is on."),
    )
    play(scenario(user={"script": ["Is wifi on?"]}), assistant, Watching())
    user_view = seen_by_user[-1].messages
    assert all(m.sender != "environment" and not m.tool_calls for m in user_view)
    assert [m.content for m in user_view] == ["Is wifi on?", "Wifi is on."]
    assistant_view = assistant.seen[-1].messages
    assert assistant_view[0].sender == "system"
    assert any(m.is_tool_result and m.result is True for m in assistant_view)
    assert assistant.seen[0].tools  # tool schemas are offered


def test_turn_limit_ends_a_looping_assistant() -> None:
    looping = Scripted(
        AssistantTurn(tool_calls=(ToolCall(id="x", name="get_wifi_status", arguments="{}"),))
    )
    trajectory = play(scenario(max_turns=7), looping)
    assert trajectory.termination == "turn_limit"
    assert sum(1 for m in trajectory.messages if m.sender != "system") == 7


def test_user_ending_is_recorded_as_user_ended() -> None:
    class Ending:
        name = "ender"

        async def respond(self, context: AssistantContext) -> UserTurn:
            if any(m.sender == "assistant" for m in context.messages):
                return UserTurn(end="user_ended")
            return UserTurn(content="hi")

    trajectory = play(scenario(), Scripted(AssistantTurn(content="hello")), Ending())
    assert trajectory.termination == "user_ended"
    last = trajectory.messages[-1]
    assert last.tool_calls[0].name == "end_conversation" and last.visible_to == ("user",)


def test_faults_are_classified() -> None:
    class Broken:
        name = "broken"

        def __init__(self, exc: Exception) -> None:
            self.exc = exc

        async def respond(self, context: AssistantContext) -> AssistantTurn:
            raise self.exc

    infra = play(scenario(), Broken(InfrastructureError("endpoint down after 5 retries")))
    assert infra.termination == "infrastructure_error"
    assert "endpoint down" in (infra.error or "")
    own = play(scenario(), Broken(AssistantError("agent crashed")))
    assert own.termination == "assistant_error"
    bug = play(scenario(), Broken(KeyError("oops")))
    assert bug.termination == "assistant_error"

    class BrokenUser:
        name = "broken-user"

        async def respond(self, context: AssistantContext) -> UserTurn:
            raise ConnectionError("simulator unreachable")

    user_fault = play(scenario(), OracleAssistant(), BrokenUser())
    assert user_fault.termination == "infrastructure_error"


def test_bad_tool_calls_are_answered_not_fatal() -> None:
    assistant = Scripted(
        AssistantTurn(
            tool_calls=(
                ToolCall(id="1", name="no_such_tool", arguments="{}"),
                ToolCall(id="2", name="set_wifi_status", arguments="{not json"),
                ToolCall(id="3", name="set_wifi_status", arguments='{"on": "no"}'),
            )
        ),
        AssistantTurn(content="Sorry."),
    )
    trajectory = play(scenario(user={"script": ["go"]}), assistant)
    results = [m for m in trajectory.messages if m.is_tool_result]
    assert [r.error_type for r in results] == [
        "unknown_tool",
        "malformed_arguments",
        "invalid_arguments",
    ]
    assert trajectory.changes == []
    assert trajectory.termination == "script_exhausted"


def test_withheld_tool_is_unknown_to_the_assistant() -> None:
    sc = scenario(tools={"deny": ["set_wifi_status"]}, user={"script": ["go"]})
    assistant = Scripted(
        AssistantTurn(
            tool_calls=(ToolCall(id="1", name="set_wifi_status", arguments='{"on": false}'),)
        ),
        AssistantTurn(content="ok"),
    )
    trajectory = play(sc, assistant)
    names = [t["function"]["name"] for t in assistant.seen[0].tools]
    assert "set_wifi_status" not in names
    result = next(m for m in trajectory.messages if m.is_tool_result)
    assert result.error_type == "unknown_tool"
    assert trajectory.changes == []


def test_same_inputs_give_identical_trajectories() -> None:
    first = play(scenario(), OracleAssistant()).model_dump_json()
    second = play(scenario(), OracleAssistant()).model_dump_json()
    assert first == second


def test_a_distraction_tool_that_was_shown_runs() -> None:
    """An augmentation's distraction tools are real tools: calling one runs it (as in the
    reference); a tool that was not shown stays unknown."""
    sc = scenario(tools={"allow": ["set_wifi_status"]}, augmentation="distractors_all")
    call = ToolCall(id="c1", name="get_cellular_service_status", arguments="{}")
    hidden = ToolCall(id="c2", name="no_such_tool", arguments="{}")
    trajectory = play(
        sc, Scripted(AssistantTurn(tool_calls=(call, hidden)), AssistantTurn(content="ok"))
    )
    results = [m for m in trajectory.messages if m.is_tool_result]
    assert results[0].error is None and results[0].result is True
    assert results[1].error_type == "unknown_tool"
    plain = play(
        scenario(tools={"allow": ["set_wifi_status"]}),
        Scripted(AssistantTurn(tool_calls=(call,)), AssistantTurn(content="ok")),
    )
    assert next(m for m in plain.messages if m.is_tool_result).error_type == "unknown_tool"
