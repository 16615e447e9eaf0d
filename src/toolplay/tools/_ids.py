"""Deterministic identifiers for rows tools create (seeded per world and per generator)."""

from __future__ import annotations

import uuid

from toolplay.world import World


def new_id(world: World, generator: str) -> str:
    """A UUID-shaped id drawn from the world's seeded generator `generator`."""
    return str(uuid.UUID(int=world.rng(generator).getrandbits(128), version=4))
