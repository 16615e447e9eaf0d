"""Parallel calls that race on device state fail as they would on a device (readers first)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from support import parse_scenario, play_dynamic, registry_for, score_milestones
from toolplay.conversation import execution_order
from toolplay.messages import ToolCall
from toolplay.roles import AssistantContext, AssistantTurn, ScriptedUser

REGISTRY = registry_for(["settings", "contacts", "messaging", "weather", "stocks"])
LOW_BATTERY = {
    "cellular": False,
    "wifi": False,
    "location_service": False,
    "low_battery_mode": True,
    "latitude": 37.3349,
    "longitude": -122.009,
}


def batch(*calls: tuple[str, dict[str, Any]]) -> list[ToolCall]:
    return [ToolCall.from_args(str(i), n, a) for i, (n, a) in enumerate(calls)]


@pytest.mark.parametrize(
    ("calls", "first"),
    [
        (
            (
                ("set_cellular_service_status", {"on": True}),
                (
                    "send_message_with_phone_number",
                    {"phone_number": "+15550001111", "content": "x"},
                ),
            ),
            "send_message_with_phone_number",
        ),
        (
            (
                ("set_low_battery_mode_status", {"on": False}),
                ("set_wifi_status", {"on": True}),
            ),
            "set_wifi_status",
        ),
        (
            (("set_wifi_status", {"on": True}), ("search_stock", {"query": "AAPL"})),
            "search_stock",
        ),
    ],
)
def test_dependent_call_runs_before_the_state_it_depends_on(
    calls: tuple[tuple[str, dict[str, Any]], ...], first: str
) -> None:
    order = execution_order(batch(*calls), REGISTRY)
    assert calls[order[0]][0] == first


class Parallel:
    """Sends all its calls in one message, then answers in text."""

    name = "parallel"

    def __init__(self, *calls: tuple[str, dict[str, Any]]) -> None:
        self.calls = calls

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        if any(m.sender == "assistant" for m in context.messages):
            return AssistantTurn(content="Done.")
        return AssistantTurn(tool_calls=tuple(batch(*self.calls)))


def test_cellular_on_in_parallel_with_send_loses_the_milestone() -> None:
    scenario = parse_scenario(
        {
            "id": "race",
            "world": {
                "domains": ["settings", "contacts", "messaging"],
                "tables": {"settings": [{**LOW_BATTERY, "low_battery_mode": False}]},
            },
            "user": {"script": ["Turn on cellular and text +15550001111 hello"]},
            "milestones": [
                {
                    "constraints": [
                        {"kind": "state", "table": "settings", "rows": [{"cellular": True}]}
                    ]
                },
                {
                    "constraints": [
                        {
                            "kind": "added",
                            "table": "messages",
                            "rows": [{"recipient_phone_number": "+15550001111"}],
                        }
                    ]
                },
            ],
        },
        "test",
    )
    racing = Parallel(
        ("set_cellular_service_status", {"on": True}),
        ("send_message_with_phone_number", {"phone_number": "+15550001111", "content": "hello"}),
    )
    trajectory = asyncio.run(play_dynamic(scenario, racing, ScriptedUser()))
    results = [m for m in trajectory.messages if m.is_tool_result]
    assert results[0].tool_name == "send_message_with_phone_number"
    assert "Cellular service is turned off" in (results[0].error or "")
    assert results[1].error is None
    assert score_milestones(scenario, trajectory).score == 0.5


def test_nested_chain_in_parallel_fails_at_the_inner_dependency() -> None:
    scenario = parse_scenario(
        {
            "id": "nested",
            "world": {"domains": ["settings"], "tables": {"settings": [LOW_BATTERY]}},
            "user": {"script": ["Turn off low battery mode and turn wifi on"]},
        },
        "test",
    )
    racing = Parallel(
        ("set_low_battery_mode_status", {"on": False}), ("set_wifi_status", {"on": True})
    )
    trajectory = asyncio.run(play_dynamic(scenario, racing, ScriptedUser()))
    results = [m for m in trajectory.messages if m.is_tool_result]
    assert [r.tool_name for r in results] == ["set_wifi_status", "set_low_battery_mode_status"]
    assert "low battery mode is on" in (results[0].error or "")
    assert [c.after for c in trajectory.changes] == [{**LOW_BATTERY, "low_battery_mode": False}]
