"""Assistants of graded slot-filling quality for the system-level agreement test (`--plugin`).

Each plays the reference (so it reads it: `sees_reference`), but its calls keep only their
first `keep` slots, so assistants differ by a known amount under every method.
"""

from __future__ import annotations

import json

from toolplay.catalog import Catalog
from toolplay.messages import ToolCall
from toolplay.roles import AssistantContext, AssistantTurn, OracleAssistant, RoleKind


class FirstSlots:
    """The oracle, keeping only the first `keep` slots of each call."""

    sees_reference = True

    def __init__(self, keep: int) -> None:
        self.name = f"first-{keep}"
        self.keep = keep

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """The oracle's answer with each call's arguments cut to `keep` slots."""
        turn = await OracleAssistant().respond(context)
        calls = tuple(
            ToolCall.from_args(
                c.id, c.name, dict(list(json.loads(c.arguments).items())[: self.keep])
            )
            for c in turn.tool_calls
        )
        return AssistantTurn(content=turn.content, tool_calls=calls)


def register(catalog: Catalog) -> None:
    """Add `first-1` and `first-2`."""
    for keep in (1, 2):
        catalog.add_assistant(RoleKind(f"first-{keep}", lambda request, k=keep: FirstSlots(k)))
