"""Turn a scenario's world spec and tool selection into a live world and a registry."""

from __future__ import annotations

import json
from functools import lru_cache

from toolplay.scenarios._model import Scenario
from toolplay.tools import Registry, registry_for, with_api_tools
from toolplay.world import World


def scenario_registry(scenario: Scenario) -> Registry:
    """All tools of the scenario's domains plus its API-only tools (before selection).

    Raises:
        RegistryError: An unknown domain, or an unusable API-only schema.
    """
    domains = tuple(scenario.world.domains)
    if not scenario.tools.api_only:
        return registry_for(domains)
    return _with_apis(domains, json.dumps(scenario.tools.api_only))


@lru_cache(maxsize=1024)
def _with_apis(domains: tuple[str, ...], schemas: str) -> Registry:
    """Built once per distinct domains and schemas: play and scoring ask many times."""
    return with_api_tools(registry_for(domains), json.loads(schemas))


def build_world(scenario: Scenario) -> World:
    """A fresh world in the scenario's initial state (same input, same world, every time)."""
    spec = scenario.world
    return scenario_registry(scenario).new_world(
        spec.tables, clock=spec.clock, session=spec.session, seed=spec.seed
    )
