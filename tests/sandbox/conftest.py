"""Shared builders for sandbox tests: a world of every sandbox domain and call helpers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from support import registry_for
from toolplay.messages import ToolCall
from toolplay.tools import Registry, ToolOutcome
from toolplay.world import World

ALL = [
    "settings",
    "contacts",
    "messaging",
    "reminders",
    "timeutil",
    "mathutil",
    "places",
    "weather",
    "stocks",
    "holidays",
]
CLOCK = datetime.fromisoformat("2024-05-10T09:30:00-07:00")
NOW = 1715358600.0

CONTACTS = [
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
    {
        "person_id": "c-mia",
        "name": "Mia Okafor",
        "phone_number": "+14155550177",
        "relationship": "sister",
        "is_self": False,
    },
]
REMINDERS = [
    {
        "reminder_id": "r-gym",
        "content": "Gym class",
        "creation_timestamp": 1715200000.0,
        "reminder_timestamp": 1715387400.0,
        "latitude": None,
        "longitude": None,
    },
    {
        "reminder_id": "r-shop",
        "content": "Buy oat milk",
        "creation_timestamp": 1715300000.0,
        "reminder_timestamp": 1715475600.0,
        "latitude": 37.3236,
        "longitude": -122.0385,
    },
]


def settings_row(**changes: Any) -> dict[str, Any]:
    """The default device settings with `changes` applied."""
    row = {
        "cellular": True,
        "wifi": True,
        "location_service": True,
        "low_battery_mode": False,
        "latitude": 37.3349,
        "longitude": -122.009,
    }
    return {**row, **changes}


def make_world(**tables: list[dict[str, Any]]) -> tuple[Registry, World]:
    """Registry of every sandbox domain and a world with the given tables (defaults filled)."""
    registry = registry_for(ALL)
    rows = {"contacts": CONTACTS, "reminders": REMINDERS, **tables}
    return registry, registry.new_world(rows, clock=CLOCK, seed=7)


def call(registry: Registry, world: World, name: str, /, **arguments: Any) -> ToolOutcome:
    """Execute one call with already-parsed arguments."""
    return registry.execute(world, ToolCall.from_args("t", name, arguments))


def ok(registry: Registry, world: World, name: str, /, **arguments: Any) -> Any:
    """Execute a call that must succeed and return its result."""
    outcome = call(registry, world, name, **arguments)
    assert outcome.error is None, outcome.error
    return outcome.result


class Sandbox:
    """A registry and world of every sandbox domain, with call helpers (see `sandbox`)."""

    clock = CLOCK
    now = NOW
    contacts = CONTACTS
    reminders = REMINDERS

    def __init__(self) -> None:
        self.registry, self.world = make_world()

    @staticmethod
    def settings_row(**changes: Any) -> dict[str, Any]:
        """The default device settings with `changes` applied."""
        return settings_row(**changes)

    @staticmethod
    def fresh() -> Sandbox:
        """Another, independent sandbox in the initial state."""
        return Sandbox()

    def reset(self, **tables: list[dict[str, Any]]) -> World:
        """A fresh world with the given tables (others default)."""
        self.registry, self.world = make_world(**tables)
        return self.world

    def call(self, name: str, /, **arguments: Any) -> ToolOutcome:
        """Run one call on the current world."""
        return call(self.registry, self.world, name, **arguments)

    def ok(self, name: str, /, **arguments: Any) -> Any:
        """Run a call that must succeed; its result."""
        return ok(self.registry, self.world, name, **arguments)

    def fails(self, name: str, needle: str, /, **arguments: Any) -> str:
        """Run a call that must fail with `needle` in its message and change nothing."""
        before = self.world.state().digest()
        changes = len(self.world.changes)
        outcome = self.call(name, **arguments)
        error = outcome.error
        assert error is not None, f"{name} unexpectedly succeeded: {outcome.result}"
        assert needle.lower() in error.lower(), error
        assert self.world.state().digest() == before
        assert len(self.world.changes) == changes
        return str(error)


@pytest.fixture
def sandbox() -> Sandbox:
    """A fresh sandbox world for one test."""
    return Sandbox()
