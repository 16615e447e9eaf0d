"""A scenario resolved once against the tool catalog: its registry, its offered tools, its worlds.

Everything that plays or scores a scenario needs the same three things: the registry of every
tool its world can run, the tools it offers the assistant (allow/deny applied), and fresh worlds
in its initial state (for play, for replaying the reference, for rebuilding a recorded
trajectory's world). `ScenarioSetup` holds them, built once per scenario by `setup_scenario`
and passed down, so no layer looks a registry up again by domain names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from toolplay.messages import ToolCall
from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._model import ReferenceCall, ReferenceTurn, Scenario
from toolplay.tools import Registry, ToolOutcome
from toolplay.world import World


class CallExecutor(Protocol):
    """Runs tool calls the way a method's reference did, in place of the registry.

    toolplay's own way (`Registry.execute`: arguments validated against the schema, a failed
    call changes nothing, errors in toolplay's words) is what runs unless a presentation brings
    an executor (`Presentation.executor`): a reference presentation shows the model what its
    reference's tools answered, so the tools must answer as those did (ToolTalk's executor:
    its order of checks, its texts, its partial updates). Both methods may raise `ToolCrash`
    for a harness bug.
    """

    def execute(self, world: World, call: ToolCall) -> ToolOutcome:
        """Run one call of the assistant's (under the name it used) against `world`."""
        ...

    def replay(self, world: World, call: ReferenceCall) -> ToolOutcome:
        """Run one ground-truth call (its `recorded_arguments` when it has them)."""
        ...


@dataclass(frozen=True)
class ScenarioSetup:
    """One scenario with its resolved tools (see the module docstring)."""

    scenario: Scenario
    registry: Registry
    """Every tool of the scenario's domains and its API-only tools (`tools.api_only`): what the
    environment can run."""
    offered: Registry = field(init=False)
    """The tools the assistant is offered (the scenario's allow/deny lists applied)."""

    def __post_init__(self) -> None:
        tools = self.scenario.tools
        object.__setattr__(self, "offered", self.registry.select(tools.allow, tools.deny))

    def new_world(self) -> World:
        """A fresh world in the scenario's initial state (same input, same world, every time)."""
        spec = self.scenario.world
        return self.registry.new_world(
            spec.tables, clock=spec.clock, session=spec.session, seed=spec.seed
        )

    def replay_reference(
        self,
        turns: Sequence[ReferenceTurn] | None = None,
        *,
        executor: CallExecutor | None = None,
        outcomes: list[ToolOutcome] | None = None,
    ) -> World:
        """A fresh world after replaying the ground-truth calls of `turns` (default: all) in order.

        Each call is recorded against its own message index, so the world's history tells the
        calls apart. The one place the reference is replayed: static play rebuilds each turn's
        world with it, the `state` scorer its expected end state.

        Args:
            turns: The turns to replay (default: the whole reference).
            executor: Runs the calls as a method's reference did (default: the registry).
            outcomes: Receives each call's outcome, in order.

        Raises:
            ToolCrash: a reference call crashed a tool (a harness bug).
        """
        world = self.new_world()
        chosen = self.scenario.reference if turns is None else turns
        for t, turn in enumerate(chosen):
            for c, call in enumerate(turn.calls):
                world.index += 1
                if executor is not None:
                    outcome = executor.replay(world, call)
                else:
                    request = ToolCall.from_args(f"ref_{t}_{c}", call.name, call.arguments)
                    outcome = self.registry.execute(world, request)
                if outcomes is not None:
                    outcomes.append(outcome)
        return world


def setup_scenario(scenario: Scenario, context: LoadContext) -> ScenarioSetup:
    """Resolve `scenario` against the catalog in `context`."""
    return ScenarioSetup(
        scenario, context.tools.registry(scenario.world.domains, scenario.tools.api_only)
    )
