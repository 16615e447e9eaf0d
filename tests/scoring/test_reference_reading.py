"""Scoring reads a trajectory as the reference's evaluation does (issue 23).

A call's arguments carry the tool's defaults (the reference records bound arguments); a value
written in several precisions keeps the best (`formats`); an assistant's message to the
environment is its calls' code on the reference's bus.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from pydantic import ValidationError

from support import parse_scenario, play_dynamic, score_milestones
from toolplay.messages import ToolCall
from toolplay.roles import AssistantContext, AssistantTurn, ScriptedUser
from toolplay.scenarios import FlowConstraint, Scenario

BASE: dict[str, Any] = {
    "id": "t",
    "world": {"domains": ["sandbox"], "clock": "2024-08-14T10:00:00+00:00"},
    "user": {"script": ["go"]},
}


class Script:
    """Plays fixed turns: a list of (tool, arguments) calls, or a reply."""

    name = "script"

    def __init__(self, turns: list[Any]) -> None:
        self.turns = turns

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        done = sum(1 for m in context.messages if m.sender == "assistant")
        if done >= len(self.turns):
            return AssistantTurn(content="Done.")
        turn = self.turns[done]
        if isinstance(turn, str):
            return AssistantTurn(content=turn)
        calls = tuple(ToolCall.from_args(f"c{done}_{k}", n, a) for k, (n, a) in enumerate(turn))
        return AssistantTurn(tool_calls=calls)


def scenario(**fields: Any) -> Scenario:
    data = copy.deepcopy(BASE)
    data.update(fields)
    return parse_scenario(data, "test")


def score(s: Scenario, turns: list[Any]) -> float:
    played = asyncio.run(play_dynamic(s, Script(turns), ScriptedUser()))
    result = score_milestones(s, played)
    assert result.score is not None
    return result.score


def test_a_left_out_argument_reads_as_the_tools_default() -> None:
    s = scenario(
        milestones=[
            {
                "constraints": [
                    {
                        "kind": "tool_call",
                        "tool": "search_weather_around_lat_lon",
                        "arguments": {"days": 0, "latitude": None},
                    }
                ]
            }
        ]
    )
    assert score(s, [[("search_weather_around_lat_lon", {})]]) == 1.0
    assert score(s, [[("search_weather_around_lat_lon", {"days": 0})]]) == 1.0
    assert score(s, [[("search_weather_around_lat_lon", {"days": 1})]]) == 0.0


def reply_flow(template: str, similarity: str) -> Scenario:
    return scenario(
        milestones=[
            {
                "id": "converted",
                "constraints": [{"kind": "tool_call", "tool": "unit_conversion"}],
            },
            {
                "constraints": [
                    {
                        "kind": "flow",
                        "from": "converted",
                        "path": "",
                        "template": template,
                        "similarity": similarity,
                        "formats": [".0f", ".1f", ".2f", ".3f"],
                    }
                ]
            },
        ]
    )


CONVERT = ("unit_conversion", {"amount": 13.8, "from_unit": "celsius", "to_unit": "fahrenheit"})


@pytest.mark.parametrize("written", ["57", "56.8", "56.84", "56.840"])
def test_a_number_written_in_any_of_the_formats_counts(written: str) -> None:
    s = reply_flow("{value}", "contains")
    assert score(s, [[CONVERT], f"It is {written} degrees Fahrenheit."]) == 1.0


def test_a_number_in_no_format_does_not_count() -> None:
    s = reply_flow("{value}", "contains")
    assert score(s, [[CONVERT], "It is 60.2 degrees Fahrenheit."]) == 0.5
    rouge = reply_flow("It is {value} degrees", "rouge")
    assert score(rouge, [[CONVERT], "It is 56.84 degrees"]) == 1.0


def test_formats_need_a_template_flow_and_float_specs() -> None:
    with pytest.raises(ValidationError, match="formats"):
        FlowConstraint.model_validate(
            {"kind": "flow", "from": "a", "argument": "amount", "formats": [".1f"]}
        )
    with pytest.raises(ValidationError, match="not a float format spec"):
        FlowConstraint.model_validate(
            {"kind": "flow", "from": "a", "template": "{value}", "formats": ["%d"]}
        )


def test_the_message_to_the_environment_is_the_calls_code() -> None:
    forbidden = {
        "kind": "message",
        "sender": "assistant",
        "recipient": "environment",
        "content": {"contains": "timestamp_diff"},
    }
    s = scenario(minefields=[{"constraints": [forbidden]}])
    missing = ("timestamp_diff", {})  # fails (arguments missing), still on the bus
    assert score(s, [[missing], "Sorry."]) == 0.0
    assert score(s, [[("get_current_timestamp", {})], "It is now."]) == 1.0
    searched = {**forbidden, "content": {"contains": "'location': 'Paris'"}}
    argued = scenario(minefields=[{"constraints": [searched]}])
    search = ("search_location_around_lat_lon", {"location": "Paris"})
    assert score(argued, [[search]]) == 0.0  # the arguments are in the code, as Python
