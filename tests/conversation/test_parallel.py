"""Parallel tool calls: readers run before writers so races surface, without permutations."""

from __future__ import annotations

import asyncio
import itertools
import random

from support import parse_scenario, play_dynamic, registry_for
from toolplay.conversation import execution_order
from toolplay.messages import ToolCall
from toolplay.roles import AssistantContext, AssistantTurn, ScriptedUser

REGISTRY = registry_for(["settings", "contacts", "messaging"])


def calls(*names: str) -> list[ToolCall]:
    return [ToolCall(id=str(i), name=n, arguments="{}") for i, n in enumerate(names)]


def test_reader_runs_before_writer_of_its_table() -> None:
    batch = calls("set_cellular_service_status", "send_message_with_phone_number")
    assert execution_order(batch, REGISTRY) == [1, 0]


def test_independent_calls_keep_assistant_order() -> None:
    batch = calls("search_contacts", "get_wifi_status", "search_messages")
    assert execution_order(batch, REGISTRY) == [0, 1, 2]


def test_order_is_a_permutation_and_respects_one_way_conflicts() -> None:
    names = REGISTRY.names() + ["unknown_tool"]
    rng = random.Random(7)
    for _ in range(300):
        batch = calls(*rng.choices(names, k=rng.randint(1, 6)))
        order = execution_order(batch, REGISTRY)
        assert sorted(order) == list(range(len(batch)))
        meta = [REGISTRY.tools[c.name].meta if c.name in REGISTRY else None for c in batch]
        position = {call: pos for pos, call in enumerate(order)}
        for a, b in itertools.permutations(range(len(batch)), 2):
            if meta[a] is None or meta[b] is None:
                continue
            a_reads_b = meta[a].reads & meta[b].writes
            b_reads_a = meta[b].reads & meta[a].writes
            if a_reads_b and not b_reads_a:
                assert position[a] < position[b], (batch, order)


def test_cellular_on_in_parallel_with_send_surfaces_the_race() -> None:
    scenario = parse_scenario(
        {
            "id": "race",
            "world": {
                "domains": ["settings", "contacts", "messaging"],
                "tables": {
                    "settings": [
                        {
                            "cellular": False,
                            "wifi": True,
                            "location_service": True,
                            "low_battery_mode": False,
                            "latitude": 0.0,
                            "longitude": 0.0,
                        }
                    ]
                },
            },
            "user": {"script": ["Turn on cellular and text +15550001111 hello"]},
        },
        "test",
    )

    class Parallel:
        name = "parallel"
        done = False

        async def respond(self, context: AssistantContext) -> AssistantTurn:
            if self.done:
                return AssistantTurn(content="done")
            self.done = True
            return AssistantTurn(
                tool_calls=(
                    ToolCall(id="a", name="set_cellular_service_status", arguments='{"on": true}'),
                    ToolCall(
                        id="b",
                        name="send_message_with_phone_number",
                        arguments='{"phone_number": "+15550001111", "content": "hello"}',
                    ),
                )
            )

    trajectory = asyncio.run(play_dynamic(scenario, Parallel(), ScriptedUser()))
    results = [m for m in trajectory.messages if m.is_tool_result]
    assert [r.tool_call_id for r in results] == ["b", "a"]
    assert results[0].error_type == "tool_error" and "Cellular" in (results[0].error or "")
    assert results[1].error is None
    assert [c.table for c in trajectory.changes] == ["settings"]
