"""A test assistant for the interval tests, registered as a plugin (`coin:SHARE[:SALT]`).

It plays the oracle on a seeded share of (scenario, trial) pairs and stays silent on the
others, so a run's scores vary across scenarios and trials in a known, repeatable way (another
salt, other coins). It is a test double built on the oracle, so it reads the reference
(`sees_reference`).
"""

from __future__ import annotations

import zlib

from toolplay.catalog import Catalog
from toolplay.roles import (
    AssistantContext,
    AssistantTurn,
    OracleAssistant,
    RoleKind,
    RoleRequest,
    SilentAssistant,
)


class Coin:
    """The oracle where this (scenario, trial)'s coin lands below `share`, silent elsewhere."""

    sees_reference = True

    def __init__(self, share: float, salt: str = "") -> None:
        self.name = f"coin-{share}"
        self.share, self.salt = share, salt

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Play the reference when this scenario's coin for this trial says so."""
        key = f"{context.scenario_id}/{context.trial}"
        draw = zlib.crc32(f"{self.salt}/{key}".encode() if self.salt else key.encode()) % 1000
        if draw < self.share * 1000:
            return await OracleAssistant().respond(context)
        return await SilentAssistant().respond(context)


def _coin(request: RoleRequest) -> Coin:
    share, _, salt = request.argument.partition(":")
    return Coin(float(share or 0.5), salt)


def register(catalog: Catalog) -> None:
    """Add the `coin:SHARE` assistant."""
    catalog.add_assistant(
        RoleKind("coin", _coin, "Oracle on a seeded share of trials.", "coin:SHARE[:SALT]")
    )
