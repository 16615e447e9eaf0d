"""Turn a scenario's world spec and tool selection into a live world and a registry."""

from __future__ import annotations

from toolplay.scenarios._model import Scenario
from toolplay.tools import Registry, registry_for
from toolplay.world import World


def scenario_registry(scenario: Scenario) -> Registry:
    """All tools of the scenario's domains (the environment's view, before selection)."""
    return registry_for(scenario.world.domains)


def build_world(scenario: Scenario) -> World:
    """A fresh world in the scenario's initial state (same input, same world, every time)."""
    spec = scenario.world
    return scenario_registry(scenario).new_world(
        spec.tables, clock=spec.clock, session=spec.session, seed=spec.seed
    )
