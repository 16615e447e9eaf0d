"""Benchmark: milestone scoring of a hard, failing 30-message trajectory against 6 milestones.

The ToolSandbox reference needs 138 s for such a case (depth-first search over orders). This
script plays a flawed assistant through a scenario with a partial-order DAG of 6 milestones
(one referring to another's snapshot, ROUGE-scored texts, a guardrail) until the trajectory
holds 30 messages, then times `score_milestones` end to end (world replay, similarities,
exact DP mapping). As a baseline measured in the same run, the mapping is also found by brute
force over every DAG-respecting assignment on the first 12 messages, where that is feasible,
and checked equal to the DP's.

Run: .venv/bin/python bench/bench_milestones.py
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import statistics
import time
from typing import Any

from toolplay.conversation import play_dynamic
from toolplay.messages import ToolCall, Trajectory
from toolplay.roles import AssistantTurn, RoleContext, ScriptedUser
from toolplay.scenarios import Scenario, build_world, parse_scenario
from toolplay.scoring import score_milestones
from toolplay.scoring._mapping import best_mapping
from toolplay.scoring._milestones import _Compiled
from toolplay.scoring._similarity import rouge_l
from toolplay.scoring._trace import TraceView
from toolplay.world import replay_changes

SCENARIO: dict[str, Any] = {
    "id": "bench",
    "world": {
        "domains": ["settings", "contacts", "messaging", "reminders"],
        "clock": "2024-05-10T09:30:00-07:00",
        "tables": {
            "settings": [
                {
                    "cellular": False,
                    "wifi": False,
                    "location_service": False,
                    "low_battery_mode": True,
                    "latitude": 37.3349,
                    "longitude": -122.009,
                }
            ],
            "contacts": [
                {
                    "person_id": "self",
                    "name": "Sam Park",
                    "phone_number": "+14085550100",
                    "relationship": "self",
                    "is_self": True,
                },
                {
                    "person_id": "c-bob",
                    "name": "Bob Rivera",
                    "phone_number": "+14155550142",
                    "relationship": "friend",
                    "is_self": False,
                },
            ],
        },
    },
    "user": {
        "script": [
            "Text Bob and set a reminder",
            "Did it work?",
            "Try again please",
            "Anything else?",
            "Thanks",
            "Bye",
        ]
    },
    "milestones": [
        {
            "id": "found",
            "constraints": [
                {
                    "kind": "tool_call",
                    "tool": "search_contacts",
                    "arguments": {"name": "Bob Rivera"},
                }
            ],
        },
        {
            "id": "battery_off",
            "after": [],
            "constraints": [
                {"kind": "state", "table": "settings", "rows": [{"low_battery_mode": False}]}
            ],
        },
        {
            "id": "cellular",
            "after": ["battery_off"],
            "constraints": [
                {
                    "kind": "updated",
                    "table": "settings",
                    "reference": "battery_off",
                    "rows": [{"cellular": True, "low_battery_mode": False}],
                }
            ],
        },
        {
            "id": "sent",
            "after": ["found", "cellular"],
            "constraints": [
                {
                    "kind": "added",
                    "table": "messages",
                    "rows": [
                        {
                            "recipient_phone_number": "+14155550142",
                            "content": {"rouge": "I will be ten minutes late to the meeting"},
                        }
                    ],
                },
                {
                    "kind": "flow",
                    "from": "found",
                    "path": "*.phone_number",
                    "argument": "phone_number",
                },
                {"kind": "guardrail", "table": "contacts", "reference": "found"},
            ],
        },
        {
            "id": "reminder",
            "after": ["found"],
            "constraints": [
                {
                    "kind": "added",
                    "table": "reminders",
                    "rows": [
                        {
                            "content": {"rouge": "Call Bob about the quarterly budget review"},
                            "reminder_timestamp": 1715439600.0,
                        }
                    ],
                }
            ],
        },
        {
            "id": "told",
            "after": ["sent", "reminder"],
            "constraints": [
                {
                    "kind": "message",
                    "content": "I texted Bob that you will be ten minutes late "
                    "and set a reminder to call him tomorrow at 8",
                }
            ],
        },
    ],
}

FLAWED_TURNS: list[Any] = [
    [("search_contacts", {"name": "Bob"})],
    [
        (
            "send_message_with_phone_number",
            {"phone_number": "+14155550142", "content": "late to the meeting"},
        )
    ],
    [("set_cellular_service_status", {"enabled": True})],
    [("add_reminder", {"content": "Call Bob", "reminder_timestamp": 1715443200.0})],
    "I could not send the text, cellular is off; I set a reminder to call Bob.",
    [("set_low_battery_mode_status", {"enabled": False})],
    [("add_contact", {"name": "Bob R", "phone_number": "+14155550143"})],
    [
        (
            "send_message_with_phone_number",
            {"phone_number": "+14155550143", "content": "I will be late"},
        )
    ],
    "I texted Bob that you will be late.",
    [("modify_reminder", {"reminder_id": "unknown", "content": "Call Bob about budget"})],
    [("search_reminder", {"content": "Bob"})],
    "I set a reminder to call Bob about the budget.",
]


class Flawed:
    """Plays FLAWED_TURNS: wrong orders, wrong numbers, near-miss texts."""

    name = "flawed"

    async def respond(self, context: RoleContext) -> AssistantTurn:
        done = sum(1 for m in context.messages if m.sender == "assistant")
        if done >= len(FLAWED_TURNS):
            return AssistantTurn(content="That is all I can do.")
        turn = FLAWED_TURNS[done]
        if isinstance(turn, str):
            return AssistantTurn(content=turn)
        calls = tuple(ToolCall.from_args(f"c{done}", n, a) for n, a in turn)
        return AssistantTurn(tool_calls=calls)


def build() -> tuple[Scenario, Trajectory]:
    """The scenario and a 30-message trajectory of the flawed assistant."""
    scenario = parse_scenario(SCENARIO, "bench")
    trajectory = asyncio.run(play_dynamic(scenario, Flawed(), ScriptedUser()))
    messages = trajectory.messages[:30]
    changes = [c for c in trajectory.changes if c.index < 30]
    return scenario, trajectory.model_copy(update={"messages": messages, "changes": changes})


def brute_force(compiled: _Compiled, view: TraceView, n: int) -> float:
    """Best mean similarity over every DAG-respecting mapping onto the first n messages."""
    k = len(compiled.milestones)
    best = -1.0
    for idx in itertools.product(range(n), repeat=k):
        if any(idx[a] > idx[b] for a, b in compiled.edges):
            continue
        sims = [
            compiled.similarity(
                view, m, idx[m], idx[compiled.references[m]] if m in compiled.references else None
            )
            for m in range(k)
        ]
        best = max(best, math.fsum(sims) / k)
    return best


def main() -> None:
    scenario, trajectory = build()
    assert len(trajectory.messages) == 30, len(trajectory.messages)
    rouge_l("warm up", "the ROUGE scorer's imports")  # load rouge-score/nltk once, untimed
    timings = []
    for _ in range(20):
        rouge_l.cache_clear()  # every run computes its text similarities from scratch
        start = time.perf_counter()
        result = score_milestones(scenario, trajectory)
        timings.append(time.perf_counter() - start)
    print(
        f"trajectory: {len(trajectory.messages)} messages, {len(scenario.milestones)} "
        f"milestones, score {result.score:.4f} (a failing case)"
    )
    print(
        "mapping:",
        [
            (m["id"], m["index"], round(m["similarity"], 3))
            for m in result.details["milestone_mapping"]
        ],
    )
    print(
        f"score_milestones end to end: median {statistics.median(timings) * 1000:.1f} ms, "
        f"max {max(timings) * 1000:.1f} ms over {len(timings)} runs (budget 50 ms; "
        "reference 138 s)"
    )

    n = 12
    world = replay_changes(build_world(scenario), trajectory.changes)
    view = TraceView(trajectory, world)
    compiled = _Compiled(scenario.milestones)
    start = time.perf_counter()
    dp = best_mapping(
        lambda m, i, r: compiled.similarity(view, m, i, r),
        n,
        compiled.edges,
        compiled.references,
        k=len(compiled.milestones),
    )
    dp_time = time.perf_counter() - start
    start = time.perf_counter()
    brute = brute_force(compiled, view, n)
    brute_time = time.perf_counter() - start
    assert math.isclose(dp.mean, brute, abs_tol=1e-12), (dp.mean, brute)
    print(
        f"baseline on the first {n} messages: brute force {brute_time * 1000:.0f} ms, "
        f"DP {dp_time * 1000:.2f} ms (same optimum {brute:.4f}; "
        f"{brute_time / dp_time:.0f}x faster)"
    )
    print(
        json.dumps(
            {
                "median_ms": round(statistics.median(timings) * 1000, 1),
                "max_ms": round(max(timings) * 1000, 1),
                "budget_ms": 50,
                "brute_force_12_messages_ms": round(brute_time * 1000),
                "dp_12_messages_ms": round(dp_time * 1000, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
