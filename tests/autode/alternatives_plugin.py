"""A test assistant for scoring settings, registered as a plugin (`--plugin`).

`alternatives` plays the reference (so it reads it: `sees_reference`), but gives every slot of
the label call that has accepted alternatives (`metadata.label.accept`) its first alternative:
wrong under AutoDE's exact matching, right under `slot_matching=lenient`.
"""

from __future__ import annotations

import json
from typing import Any

from toolplay.catalog import Catalog
from toolplay.messages import ToolCall
from toolplay.roles import AssistantContext, AssistantTurn, OracleAssistant, RoleKind


class Alternatives:
    """The oracle, saying each label slot's first accepted alternative."""

    name = "alternatives"
    sees_reference = True

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """The oracle's answer with the label call's slots swapped for alternatives."""
        turn = await OracleAssistant().respond(context)
        assert context.reference is not None
        label: dict[str, Any] = context.reference.scenario.metadata.get("label") or {}
        accept: dict[str, list[Any]] = label.get("accept") or {}

        def swapped(call: ToolCall) -> ToolCall:
            arguments = json.loads(call.arguments)
            if call.name == label.get("name"):
                arguments = {k: accept[k][0] if accept.get(k) else v for k, v in arguments.items()}
            return ToolCall.from_args(call.id, call.name, arguments)

        return AssistantTurn(
            content=turn.content, tool_calls=tuple(swapped(c) for c in turn.tool_calls)
        )


def register(catalog: Catalog) -> None:
    """Add `alternatives`."""
    catalog.add_assistant(RoleKind("alternatives", lambda request: Alternatives()))
