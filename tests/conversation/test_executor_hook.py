"""A presentation's executor (`Presentation.executor`) runs the calls and the reference replay.

A reference presentation may bring its reference's way of running tools; here a small one wraps
the registry and marks what it ran, so each path can be seen: the assistant's calls in dynamic
and static play, the replay of the reference before each static turn, the arguments it reports
on every result (`executed_arguments`), and shown names mapped to the real tools first.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import support
from toolplay.conversation import PlayRequest, PlaySettings
from toolplay.messages import ToolCall, Trajectory
from toolplay.roles import OracleAssistant, Presentation, ScriptedUser
from toolplay.scenarios import CallExecutor, ReferenceCall, ScenarioSetup
from toolplay.tools import Registry, ToolOutcome, ToolPresentation
from toolplay.world import World

SCENARIO = support.parse_scenario(
    {
        "id": "executor",
        "world": {"domains": ["settings"]},
        "user": {"script": ["Wifi off.", "And back on."]},
        "reference": [
            {
                "user": "Wifi off.",
                "calls": [{"name": "set_wifi_status", "arguments": {"on": False}}],
            },
            {
                "user": "And back on.",
                "calls": [{"name": "set_wifi_status", "arguments": {"on": True}}],
            },
        ],
    },
    "test",
)


@dataclass
class Marking:
    """Runs calls through the registry and reports the arguments it ran, marked."""

    registry: Registry
    ran: list[str] = field(default_factory=list)

    def execute(self, world: World, call: ToolCall) -> ToolOutcome:
        self.ran.append(f"call {call.name}")
        return self._run(world, call.name, json.loads(call.arguments))

    def replay(self, world: World, call: ReferenceCall) -> ToolOutcome:
        self.ran.append(f"replay {call.name}")
        return self._run(world, call.name, dict(call.arguments))

    def _run(self, world: World, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        outcome = self.registry.execute(world, ToolCall.from_args("x", name, arguments))
        shown = json.dumps({**arguments, "marked": True})
        return ToolOutcome(outcome.result, outcome.error, outcome.error_type, shown)


@dataclass(frozen=True)
class WithExecutor(Presentation):
    executors: list[Marking] = field(default_factory=list, compare=False)
    renamed: bool = False

    def offer(self, setup: ScenarioSetup, offered: ToolPresentation) -> ToolPresentation:
        if not self.renamed:
            return offered
        schemas = [
            {**s, "function": {**s["function"], "name": "x_" + s["function"]["name"]}}
            for s in offered.schemas
        ]
        return ToolPresentation(tuple(schemas), {"x_" + k: v for k, v in offered.names.items()})

    def executor(self, setup: ScenarioSetup) -> CallExecutor | None:
        marking = Marking(setup.registry)
        self.executors.append(marking)
        return marking


def play(mode: str, presentation: Presentation, assistant: Any = None) -> Trajectory:
    request = PlayRequest(
        support.setup(SCENARIO),
        assistant or OracleAssistant(),
        ScriptedUser(),
        0,
        PlaySettings(),
        (),
        presentation,
    )
    return asyncio.run(support.CATALOG.mode(mode).play(request))


def results(trajectory: Trajectory, reference: bool) -> list[Any]:
    return [m for m in trajectory.messages if m.is_tool_result and m.from_reference == reference]


def test_without_an_executor_the_registry_runs_and_reports_nothing_more() -> None:
    trajectory = play("static", support.CATALOG.presentation("toolplay"))
    assert all(m.executed_arguments is None for m in trajectory.messages)


def test_static_play_runs_calls_and_the_replay_through_the_executor() -> None:
    presentation = WithExecutor()
    trajectory = play("static", presentation)
    (marking,) = presentation.executors
    # one replay of the whole reference (what each call is shown as), then turn 1's replay of
    # turn 0, and the assistant's call in each turn
    assert marking.ran == [
        "replay set_wifi_status",
        "replay set_wifi_status",
        "call set_wifi_status",
        "replay set_wifi_status",
        "call set_wifi_status",
    ]
    assert [m.executed_arguments for m in results(trajectory, reference=True)] == [
        '{"on": false, "marked": true}',
        '{"on": true, "marked": true}',
    ]
    assert all(m.executed_arguments for m in results(trajectory, reference=False))
    assert support.CATALOG.presentation("toolplay").executor(support.setup(SCENARIO)) is None


def test_dynamic_play_runs_calls_through_the_executor_under_their_real_names() -> None:
    presentation = WithExecutor(renamed=True)
    trajectory = play("dynamic", presentation)  # the oracle calls the shown names (x_...)
    assert {c.name for m in trajectory.messages for c in m.tool_calls} == {"x_set_wifi_status"}
    assert presentation.executors[0].ran == ["call set_wifi_status", "call set_wifi_status"]
    assert [m.error for m in results(trajectory, reference=False)] == [None, None]


def test_replaying_the_reference_reports_each_outcome() -> None:
    setup = support.setup(SCENARIO)
    outcomes: list[ToolOutcome] = []
    world = setup.replay_reference(executor=Marking(setup.registry), outcomes=outcomes)
    assert [o.executed_arguments for o in outcomes] == [
        '{"on": false, "marked": true}',
        '{"on": true, "marked": true}',
    ]
    assert world.rows("settings")[0]["wifi"] is True
    plain: list[ToolOutcome] = []
    setup.replay_reference(outcomes=plain)
    assert [o.error for o in plain] == [None, None]
