"""Assistants under test for the audit tests (`python:tests/analysis/agents.py:NAME`).

They hold no reference: each knows, from the scenario id alone, which contact the user wants
added (the test suite's own scenarios, `conftest.CONTACTS`) and whether it "manages" to add it
in this trial. How well each one does is the point: the audit must find exactly the items the
tests build from their behaviour.
"""

from __future__ import annotations

import json
from typing import Any

from toolplay.roles import AssistantContext

CONTACTS = {
    "sound_a": ("Alice Chen", "+14155550101"),
    "sound_b": ("Bob Rivera", "+14155550102"),
    "broken_gold": ("Carol Diaz", "+14155550103"),
    "hard": ("Dana Kim", "+14155550104"),
    "flaky": ("Eve Moreau", "+14155550105"),
    "reverse": ("Fay Lund", "+14155550106"),
    **{f"ladder_{i}": (f"Person {i}", f"+1415555020{i}") for i in range(1, 6)},
}


def _act(context: AssistantContext, messages: list[dict[str, Any]], solves: bool) -> Any:
    if any(m["role"] == "tool" for m in messages):
        return "Done: the contact is added."
    if not solves or context.scenario_id not in CONTACTS:
        return "Sorry, I cannot do that."
    name, phone = CONTACTS[context.scenario_id]
    call = {"name": "add_contact", "arguments": json.dumps({"name": name, "phone_number": phone})}
    return {"content": None, "tool_calls": [{"id": "call_0", "type": "function", "function": call}]}


def strong(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]], context: AssistantContext
) -> Any:
    """Adds the contact everywhere but in `hard`, and in `flaky` only on even trials."""
    sid = context.scenario_id
    solves = sid != "hard" and (sid != "flaky" or context.trial % 2 == 0)
    return _act(context, messages, solves)


def weak(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]], context: AssistantContext
) -> Any:
    """Like `strong`, but gives up on `sound_b` too."""
    sid = context.scenario_id
    solves = sid not in ("hard", "sound_b") and (sid != "flaky" or context.trial % 2 == 0)
    return _act(context, messages, solves)


SLOTS = {
    # scenario id -> (name, phone): the plain one as the script says it; the other with the
    # number written the way a person would, not the way the gold is (E.164)
    "autode_slot_plain": ("Alice Chen", "+14155550101"),
    "autode_slot_format": ("Bob Rivera", "(415) 555-0102"),
}


def slot_filler(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]], context: AssistantContext
) -> Any:
    """Calls add_contact at once with the name and number it reads in `SLOTS`."""
    if context.scenario_id not in SLOTS or any(m["role"] == "tool" for m in messages):
        return "Done."
    name, phone = SLOTS[context.scenario_id]
    call = {"name": "add_contact", "arguments": json.dumps({"name": name, "phone_number": phone})}
    return {"content": None, "tool_calls": [{"id": "call_0", "type": "function", "function": call}]}


def _level(k: int) -> Any:
    def agent(
        messages: list[dict[str, Any]], tools: list[dict[str, Any]], context: AssistantContext
    ) -> Any:
        sid = context.scenario_id
        if sid.startswith("ladder_"):
            solves = int(sid.split("_")[1]) <= k
        else:
            solves = sid == "reverse" and k <= 2  # only the weakest three add Fay
        return _act(context, messages, solves)

    agent.__doc__ = f"Solves the first {k} ladder scenarios; `reverse` only if {k} <= 2."
    return agent


level0, level1, level2, level3, level4, level5 = (_level(k) for k in range(6))
