"""A deliberately imperfect assistant for static-vs-dynamic tests (a plugin: `--plugin PATH
--assistant imperfect`).

A test double, it reads the reference solution (`sees_reference`) and plays it with one of four
habits, picked per conversation from a stable hash of its id, so a run's scores vary:

- `oracle`: every reference call in its turn;
- `eager`: also makes the next turn's calls before the user asked for them. On-policy that is
  the reference's calls in the reference's order (all match); off-policy each turn starts from
  the reference again, so the next turn's calls are made twice;
- `lazy`: never makes the conversation's last reference call (recall < 1 in both modes);
- `fumble`: starts every turn that has calls with a call that fails (a delete of an alarm that
  does not exist), then plays the turn (a failed action is not an incorrect one).

It works in both modes from its view alone: the current turn is the number of user messages
seen, and what it has done is every tool call in the view (static mode shows the reference's
calls of earlier turns, dynamic mode its own).
"""

from __future__ import annotations

import zlib
from typing import Any

from toolplay.catalog import Catalog
from toolplay.roles import AssistantContext, AssistantTurn, RoleKind
from toolplay.roles._python import to_turn

HABITS = ("oracle", "eager", "lazy", "fumble")
FUMBLE_TOOL = "DeleteAlarm"
FUMBLE_ARGUMENTS = {"alarm_id": "0000-0000"}


def habit(scenario_id: str) -> str:
    """The habit used for a conversation (stable across runs and processes)."""
    return HABITS[zlib.crc32(scenario_id.encode()) % len(HABITS)]


class Imperfect:
    """The assistant kind `imperfect`."""

    name = "imperfect"
    sees_reference = True

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """The next assistant message (see the module docstring)."""
        return to_turn(imperfect(context))


def register(catalog: Catalog) -> None:
    """Add the `imperfect` assistant kind."""
    catalog.add_assistant(RoleKind("imperfect", lambda request: Imperfect()))


def imperfect(context: AssistantContext) -> Any:
    """The next assistant message (see the module docstring)."""
    assert context.reference is not None
    scenario = context.reference.scenario
    kind = habit(scenario.id)
    turn = sum(1 for m in context.messages if m.sender == "user" and m.content is not None) - 1
    calls = [(t, c) for t, ref in enumerate(scenario.reference) for c in ref.calls]
    due = [c for t, c in calls if t <= turn + (1 if kind == "eager" else 0)]
    if kind == "lazy" and calls and len(due) == len(calls):
        due = due[:-1]
    seen = [c for m in context.messages for c in m.tool_calls]
    done = [c for c in seen if not c.id.startswith("fumble")]
    if kind == "fumble" and len(done) < len(due):
        fumbled_this_turn = any(
            c.id == f"fumble_{turn}" for m in context.messages for c in m.tool_calls
        )
        if not fumbled_this_turn:
            return _call(f"fumble_{turn}", FUMBLE_TOOL, FUMBLE_ARGUMENTS)
    if len(done) < len(due):
        nxt = due[len(done)]
        return _call(f"call_{turn}_{len(seen)}", nxt.name, nxt.arguments)
    return "Done. Anything else?"


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "content": None,
        "tool_calls": [{"id": call_id, "function": {"name": name, "arguments": arguments}}],
    }
