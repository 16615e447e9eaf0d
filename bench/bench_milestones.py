"""Benchmark: scoring a failing 62-message trajectory (6 milestones, implicit guardrails).

The issue's case: with ToolSandbox's implicit guardrails every milestone refers to its
predecessors' snapshots, so the old exact search (every referenced milestone pinned to every
index: n ** r combinations) took 66-71 s at 62 messages, and the reference's depth-first
search 104 s at 31. This script plays a flawed assistant (wrong orders, wrong numbers, side
effects between milestones, near-miss texts) through a scenario with a partial-order DAG of 6
milestones until the trajectory holds 62 messages, then times `score_milestones` end to end
(world replay, similarities, exact mapping) — budget 50 ms.

Baselines measured in the same run:
- the same sweep keyed by exact message index instead of world version (what the mapping costs
  without the "references need a world version, not an index" idea), on the full trajectory;
- brute force over every DAG-respecting assignment on a prefix of the trajectory, checked equal
  to the sweep's optimum on that prefix (exactness).

Run: .venv/bin/python bench/bench_milestones.py [--quick]
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import statistics
import sys
import time
from typing import Any

from toolplay.catalog import build_catalog
from toolplay.conversation import PlayRequest, PlaySettings
from toolplay.messages import ToolCall, Trajectory
from toolplay.methods.toolsandbox._mapping import best_mapping
from toolplay.methods.toolsandbox._scoring import _Compiled
from toolplay.methods.toolsandbox._similarity import rouge_l
from toolplay.methods.toolsandbox._trace import TraceView
from toolplay.roles import AssistantContext, AssistantTurn, ScriptedUser
from toolplay.scenarios import Scenario, parse_scenario
from toolplay.scoring import score_trajectory
from toolplay.world import replay_changes

MESSAGES = 62
CATALOG = build_catalog(installed=False)
SCENARIO: dict[str, Any] = {
    "id": "bench",
    "max_turns": 200,
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
    "user": {"script": ["Text Bob and set a reminder"] + ["Please try again"] * 40},
    "milestones": [
        {
            "id": "found",
            "constraints": [
                {"kind": "tool_call", "tool": "search_contacts", "arguments": {"name": "Bob"}}
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
                    "reference": "cellular",
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
            ],
        },
        {
            "id": "reminder",
            "after": ["found"],
            "constraints": [
                {
                    "kind": "added",
                    "table": "reminders",
                    "reference": "found",
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
    [("search_contacts", {"name": "Bob R"})],
    [("send_message_with_phone_number", {"phone_number": "+14155550142", "content": "late"})],
    [("set_cellular_service_status", {"on": True})],
    [("add_reminder", {"content": "Call Bob", "reminder_timestamp": 1715443200.0})],
    "I could not send the text, cellular is off; I set a reminder to call Bob.",
    [("set_low_battery_mode_status", {"on": False})],
    [("add_contact", {"name": "Bob R", "phone_number": "+14155550143"})],
    [("send_message_with_phone_number", {"phone_number": "+14155550143", "content": "I am late"})],
    "I texted Bob that you will be late.",
    [("modify_reminder", {"reminder_id": "unknown", "content": "Call Bob about budget"})],
    [("search_reminder", {"content": "Bob"})],
    "I set a reminder to call Bob about the budget.",
]
STRESS_TURNS: list[Any] = [
    [("search_contacts", {"name": "Bob R"})],
    [("send_message_with_phone_number", {"phone_number": "+14155550142", "content": "late"})],
    [("set_low_battery_mode_status", {"on": False})],
    [("set_wifi_status", {"on": True})],
    [("set_cellular_service_status", {"on": True})],
    [("add_contact", {"name": "Bob R", "phone_number": "+14155550143"})],
    [("send_message_with_phone_number", {"phone_number": "+1 415 555 0142", "content": "late!"})],
    [("add_reminder", {"content": "Call Bob", "reminder_timestamp": 1715443200.0})],
    "I texted Bob that you are late.",
    [("set_wifi_status", {"on": False})],
    [("set_low_battery_mode_status", {"on": True})],
    [("search_contacts", {"name": "Bob"})],
    [
        (
            "add_reminder",
            {"content": "Call Bob about the budget", "reminder_timestamp": 1715439600.0},
        )
    ],
    "I set a reminder to call Bob about the budget.",
]
"""A harder failing assistant for a second measurement: it keeps changing the world, cycling
through these turns, so the 62 messages hold 18 world versions instead of 6."""


class Flawed:
    """Plays its turns: wrong orders, wrong numbers, side effects, near-miss texts."""

    name = "flawed"

    def __init__(self, turns: list[Any], *, cycle: bool) -> None:
        self.turns, self.cycle = turns, cycle

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        done = sum(1 for m in context.messages if m.sender == "assistant")
        if done >= len(self.turns) and not self.cycle:
            return AssistantTurn(content="That is all I can do.")
        turn = self.turns[done % len(self.turns)]
        if isinstance(turn, str):
            return AssistantTurn(content=turn)
        calls = tuple(ToolCall.from_args(f"c{done}", n, a) for n, a in turn)
        return AssistantTurn(tool_calls=calls)


def build(*, stress: bool = False) -> tuple[Scenario, Trajectory]:
    """The scenario and a 62-message trajectory of the flawed (or the stress) assistant."""
    scenario = parse_scenario(SCENARIO, "bench", CATALOG.load_context())
    assistant = Flawed(STRESS_TURNS, cycle=True) if stress else Flawed(FLAWED_TURNS, cycle=False)
    request = PlayRequest(CATALOG.setup(scenario), assistant, ScriptedUser(), 0, PlaySettings(), ())
    trajectory = asyncio.run(CATALOG.mode("dynamic").play(request))
    assert len(trajectory.messages) >= MESSAGES, len(trajectory.messages)
    messages = trajectory.messages[:MESSAGES]
    changes = [c for c in trajectory.changes if c.index < MESSAGES]
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
                view,
                m,
                idx[m],
                tuple(idx[r] for r in compiled.references[m]) if m in compiled.references else None,
            )
            for m in range(k)
        ]
        best = max(best, math.fsum(sims) / k)
    return best


def sweep(compiled: _Compiled, view: TraceView, n: int, *, exact_index: bool) -> float:
    """The mapping's mean over all of the first n messages, keyed by world version or index."""
    key = (lambda r, j: j) if exact_index else compiled.key(view)
    result = best_mapping(
        lambda m, i, refs: compiled.similarity(view, m, i, refs),
        n,
        compiled.edges,
        compiled.references,
        k=len(compiled.milestones),
        key=key,
    )
    return result.mean


def timed(run: Any) -> tuple[Any, float]:
    """The value of run() and its wall time in ms."""
    start = time.perf_counter()
    value = run()
    return value, (time.perf_counter() - start) * 1000


def measure(stress: bool, repeats: int) -> dict[str, Any]:
    """Score one case end to end `repeats` times; print and return its numbers."""
    scenario, trajectory = build(stress=stress)
    setup = CATALOG.setup(scenario)
    scorer = CATALOG.scorer("milestones")
    context = CATALOG.scoring_context([scenario])
    timings = []
    for _ in range(repeats):
        rouge_l.cache_clear()  # every run computes its text similarities from scratch
        result, ms = timed(lambda: score_trajectory(setup, trajectory, scorer, context))
        timings.append(ms)
    world = replay_changes(setup.new_world(), trajectory.changes)
    view = TraceView(trajectory, world)
    compiled = _Compiled(scenario.milestones, list(world.state()))
    versions = len(view.change_points()) + 1
    kept = len(compiled.useful_indices(view, compiled.key(view)))
    label = "stress" if stress else "issue case"
    print(
        f"[{label}] {len(trajectory.messages)} messages ({kept} useful), {versions} world "
        f"versions, {len(scenario.milestones)} milestones with {sum(compiled.implicit)} "
        f"implicit guardrails; score {result.score:.4f}"
    )
    print(
        "  mapping:",
        [(m.id, m.index, round(m.similarity, 3)) for m in result.evidence.milestone_mapping],
    )
    median = statistics.median(timings)
    print(f"  score end to end: median {median:.1f} ms, max {max(timings):.1f} ms")
    return {
        "compiled": compiled,
        "view": view,
        "score": result.evidence.milestone_similarity,
        "median_ms": median,
        "max_ms": max(timings),
        "versions": versions,
    }


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    rouge_l("warm up", "the ROUGE scorer's imports")  # load rouge-score/nltk once, untimed
    case = measure(False, 5 if quick else 20)
    print(
        f"  budget 50 ms: {'met' if case['median_ms'] < 50 else 'MISSED'} "
        "(old exact search 66-71 s here; reference DFS 104 s at 31 messages)"
    )
    compiled, view = case["compiled"], case["view"]
    by_version, version_ms = timed(lambda: sweep(compiled, view, MESSAGES, exact_index=False))
    by_index, index_ms = timed(lambda: sweep(compiled, view, MESSAGES, exact_index=True))
    assert math.isclose(by_version, by_index, abs_tol=1e-12), (by_version, by_index)
    assert math.isclose(by_version, case["score"], abs_tol=1e-12), (by_version, case["score"])
    print(
        f"  baselines, mapping over all {MESSAGES} messages (similarities warm): keyed by world "
        f"version {version_ms:.0f} ms, by exact index {index_ms:.0f} ms; same optimum as above"
    )
    prefix = 9 if quick else 11
    brute, brute_ms = timed(lambda: brute_force(compiled, view, prefix))
    dp, dp_ms = timed(lambda: sweep(compiled, view, prefix, exact_index=False))
    assert math.isclose(dp, brute, abs_tol=1e-12), (dp, brute)
    print(
        f"  brute force on the first {prefix} messages: {brute_ms:.0f} ms vs sweep "
        f"{dp_ms:.2f} ms, same optimum {brute:.4f}"
    )
    stress = measure(True, 3 if quick else 5)
    print(
        json.dumps(
            {
                "median_ms": round(case["median_ms"], 1),
                "max_ms": round(case["max_ms"], 1),
                "budget_ms": 50,
                "all_messages_by_version_ms": round(version_ms),
                "all_messages_by_index_ms": round(index_ms),
                f"brute_force_{prefix}_messages_ms": round(brute_ms),
                "stress_versions": stress["versions"],
                "stress_median_ms": round(stress["median_ms"], 1),
            }
        )
    )


if __name__ == "__main__":
    main()
