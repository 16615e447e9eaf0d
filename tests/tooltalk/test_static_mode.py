"""Static mode (ToolTalk Algorithm 1): per-turn rebuild, forgetting, cap, views, ablation."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from support import play_static
from toolplay.conversation import DEFAULT_MAX_CALLS_PER_TURN
from toolplay.domains.tooltalk import DOMAIN_NAMES
from toolplay.messages import (
    ToolCall,
    Trajectory,
)
from toolplay.roles import (
    Assistant,
    AssistantContext,
    AssistantError,
    AssistantTurn,
    OracleAssistant,
)
from toolplay.scenarios import ReferenceCall, ReferenceTurn, Scenario, Suite, WorldSpec

Policy = Callable[[AssistantContext, int], AssistantTurn]


class Scripted:
    """A real assistant driven by a policy (turn index, step) that records every view."""

    name = "scripted-test"

    def __init__(self, policy: Callable[[int, int], AssistantTurn]) -> None:
        self.policy = policy
        self.views: list[AssistantContext] = []

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        self.views.append(context)
        turn = max((m.turn for m in context.messages if m.turn is not None), default=0)
        step = sum(
            1
            for m in context.messages
            if m.turn == turn and not m.from_reference and m.sender == "assistant"
        )
        return self.policy(turn, step)


def call(name: str, **arguments: object) -> AssistantTurn:
    return AssistantTurn(tool_calls=(ToolCall.from_args(f"p_{name}", name, dict(arguments)),))


def say(text: str = "done") -> AssistantTurn:
    return AssistantTurn(content=text)


def small_scenario() -> Scenario:
    """Two assistant turns: add an alarm, then list alarms (built in code, no dataset)."""
    accounts = [
        {
            "username": "alice",
            "password": "pw",
            "session_token": "tok",
            "email": "a@x.com",
            "phone": "123-456-7890",
            "name": "Alice",
            "verification_code": None,
        }
    ]
    return Scenario(
        id="small",
        world=WorldSpec(
            domains=list(DOMAIN_NAMES),
            tables={"tooltalk_accounts": accounts},
            clock=datetime(2023, 9, 11, 13, 0, tzinfo=UTC),
            session={"session_token": "tok", "username": "alice"},
        ),
        evaluation="tooltalk",
        reference=[
            ReferenceTurn(
                user="Wake me at 7.",
                calls=[
                    ReferenceCall(
                        name="AddAlarm",
                        arguments={"time": "07:00:00"},
                        result={"alarm_id": "5bff-dd80"},
                        check=True,
                    )
                ],
                reply="Alarm set.",
            ),
            ReferenceTurn(
                user="Which alarms do I have?",
                calls=[
                    ReferenceCall(
                        name="FindAlarms",
                        result={"alarms": [{"alarm_id": "5bff-dd80", "time": "07:00:00"}]},
                        check=True,
                    )
                ],
                reply="One at 7.",
            ),
            ReferenceTurn(user="Thanks!"),
        ],
    )


def play(
    scenario: Scenario,
    assistant: Assistant,
    augment: Sequence[str] = (),
    max_calls_per_turn: int = DEFAULT_MAX_CALLS_PER_TURN,
) -> Trajectory:
    return asyncio.run(
        play_static(scenario, assistant, augment=augment, max_calls_per_turn=max_calls_per_turn)
    )


def test_oracle_trajectory_layout() -> None:
    trajectory = play(small_scenario(), OracleAssistant())
    assert (trajectory.mode, trajectory.termination, trajectory.user) == (
        "static",
        "completed",
        "reference",
    )
    layout = [
        (m.sender, m.turn, m.from_reference, bool(m.tool_calls), m.is_tool_result)
        for m in trajectory.messages
    ]
    assert layout == [
        ("system", None, False, False, False),
        ("user", 0, True, False, False),
        ("assistant", 0, False, True, False),  # prediction: the call
        ("environment", 0, False, False, True),  # its result
        ("assistant", 0, False, False, False),  # prediction: the reply
        ("assistant", 0, True, True, False),  # reference call
        ("environment", 0, True, False, True),  # its recorded result
        ("assistant", 0, True, False, False),  # reference reply
        ("user", 1, True, False, False),
        ("assistant", 1, False, True, False),
        ("environment", 1, False, False, True),
        ("assistant", 1, False, False, False),
        ("assistant", 1, True, True, False),
        ("environment", 1, True, False, True),
        ("assistant", 1, True, False, False),
        ("user", 2, True, False, False),
    ]
    predicted = [m for m in trajectory.messages if m.is_tool_result and not m.from_reference]
    assert predicted[0].result == {"alarm_id": "5bff-dd80"}
    assert predicted[1].result == {"alarms": [{"alarm_id": "5bff-dd80", "time": "07:00:00"}]}
    assert [c.op for c in trajectory.changes] == ["insert", "insert"]  # owner entry, alarm


def test_predictions_are_forgotten_between_turns() -> None:
    def policy(turn: int, step: int) -> AssistantTurn:
        if turn == 0:
            return [call("AddAlarm", time="06:00:00"), call("AddAlarm", time="06:30:00"), say()][
                step
            ]
        return [call("FindAlarms"), say()][step]

    assistant = Scripted(policy)
    trajectory = play(small_scenario(), assistant)
    found = [
        m.result
        for m in trajectory.messages
        if m.turn == 1 and m.is_tool_result and not m.from_reference
    ]
    # turn 1 sees the reference's alarm (07:00), not the two the assistant set in turn 0
    assert found == [{"alarms": [{"alarm_id": "5bff-dd80", "time": "07:00:00"}]}]
    turn_1_view = assistant.views[-1].messages
    assert not any(m.turn == 0 and not m.from_reference for m in turn_1_view)
    assert any(m.turn == 0 and m.from_reference and m.tool_calls for m in turn_1_view)
    # the reference call precedes the reference reply of the same turn
    kinds = [
        ("call" if m.tool_calls else "text")
        for m in turn_1_view
        if m.turn == 0 and m.from_reference and m.sender == "assistant"
    ]
    assert kinds == ["call", "text"]


def test_call_cap_ends_the_turn_and_is_recorded() -> None:
    assistant = Scripted(lambda turn, step: call("FindAlarms"))
    trajectory = play(small_scenario(), assistant, max_calls_per_turn=3)
    assert trajectory.termination == "call_limit"
    for turn in (0, 1):
        mine = [
            m
            for m in trajectory.messages
            if m.turn == turn and not m.from_reference and m.sender == "assistant"
        ]
        assert len(mine) == 3 and all(m.tool_calls for m in mine)
    # the reference still follows each capped turn
    assert [m.content for m in trajectory.messages if m.from_reference and m.sender == "user"] == [
        "Wake me at 7.",
        "Which alarms do I have?",
        "Thanks!",
    ]


def test_no_docs_ablation_reaches_the_assistant() -> None:
    assistant = Scripted(lambda turn, step: say())
    play(small_scenario(), assistant, augment=["no_docs"])
    tools = {t["function"]["name"]: t["function"] for t in assistant.views[0].tools}
    assert len(tools) == 28
    create = tools["CreateEvent"]
    assert create["description"] == ""
    assert create["parameters"]["properties"]["attendees"] == {
        "items": {"type": "string"},
        "type": "array",
    }
    assert all("description" not in p for p in create["parameters"]["properties"].values())


def test_assistant_error_stops_the_conversation() -> None:
    def policy(turn: int, step: int) -> AssistantTurn:
        if turn == 1:
            raise AssistantError("agent crashed")
        return say()

    trajectory = play(small_scenario(), Scripted(policy))
    assert trajectory.termination == "assistant_error"
    assert trajectory.error == "agent crashed"


def test_official_conversation_reproduces_ids_across_turns(tooltalk_suite: Suite) -> None:
    scenario = next(s for s in tooltalk_suite.scenarios if s.id.endswith("FindAlarm-0"))
    trajectory = play(scenario, OracleAssistant())
    results = [m for m in trajectory.messages if m.is_tool_result and not m.from_reference]
    assert [m.error for m in results] == [None] * len(results)
    login = next(m for m in results if m.tool_name == "UserLogin")
    assert login.result == {"session_token": "e149636f-d9ca-0792"}
    deleted = [m for m in results if m.tool_name == "DeleteAlarm"]
    assert len(deleted) == 4 and all(m.result == {"status": "success"} for m in deleted)
