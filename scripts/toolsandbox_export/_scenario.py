"""Translate one reference scenario (world, tools, user side, categories) into toolplay's format.

Python 3.9, standard library only (runs in the reference's virtual environment).
"""

from __future__ import annotations

import datetime
from typing import Any

from _milestones import ROLES, TABLES, Inexact, milestones

USER_TOOL = "end_conversation"
"""The user's tool: toolplay gives it to the user role, never to the assistant."""

SETTINGS = {
    "none": "",
    "distractors_3": "_3_distraction_tools",
    "distractors_10": "_10_distraction_tools",
    "distractors_all": "_all_tools",
    "distractors_3+scrambled_names": "_3_distraction_tools_tool_name_scrambled",
    "distractors_3+no_tool_descriptions": "_3_distraction_tools_tool_description_scrambled",
    "distractors_3+no_arg_descriptions": "_3_distraction_tools_arg_description_scrambled",
    "distractors_3+no_arg_types": "_3_distraction_tools_arg_type_scrambled",
}
"""toolplay augmentation setting -> suffix of the reference's variant name."""

AUGMENTATION_CATEGORIES = {
    "NO_DISTRACTION_TOOLS",
    "THREE_DISTRACTION_TOOLS",
    "TEN_DISTRACTION_TOOLS",
    "ALL_TOOLS_AVAILABLE",
    "TOOL_NAME_SCRAMBLED",
    "TOOL_DESCRIPTION_SCRAMBLED",
    "ARG_DESCRIPTION_SCRAMBLED",
    "ARG_TYPE_SCRAMBLED",
}


def _text(value: Any) -> str:
    return str(getattr(value, "value", value))


def _number(value: Any) -> Any:
    return float(value) if isinstance(value, float) else value


def world(context: Any, clock: datetime.datetime, namespace: Any) -> dict[str, Any]:
    """The initial tables (reference database -> toolplay table) and the pinned clock."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for name, table in TABLES.items():
        rows = context.get_database(namespace[name]).to_dicts()
        tables[table] = [
            {k: _number(v) for k, v in row.items() if k not in ("device_id",)} for row in rows
        ]
    return {
        "domains": ["sandbox"],
        "tables": tables,
        "clock": clock.replace(tzinfo=datetime.timezone.utc).isoformat(),
    }


def bus(context: Any, namespace: Any) -> list[dict[str, Any]]:
    """The messages on the reference's bus before the conversation starts."""
    rows = context.get_database(namespace["SANDBOX"], get_all_history_snapshots=True).to_dicts()
    return [
        {
            "sender": _text(r["sender"]),
            "recipient": _text(r["recipient"]),
            "content": r["content"],
            "visible_to": [_text(v) for v in r["visible_to"]] if r["visible_to"] else None,
        }
        for r in rows
    ]


def demonstration(messages: list[dict[str, Any]], instruction: str) -> dict[str, Any]:
    """One reference few-shot dialogue as toolplay demonstration messages.

    Roles are the user simulator's view: `system` (its briefing), `user` (what it said),
    `assistant` (what the agent said); its `end_conversation` call is a `user` message to the
    environment with the call as text, exactly as the reference puts it on the bus.
    """
    out = []
    for m in messages:
        entry = {"role": ROLES[m["sender"]], "content": m["content"]}
        if m["sender"] == "SYSTEM":
            entry["content"] = _goal(m["content"], instruction)
        if m["recipient"] == "EXECUTION_ENVIRONMENT":
            entry["recipient"] = "environment"
        out.append(entry)
    return {"messages": out}


def _goal(text: str, instruction: str) -> str:
    if not text.startswith(instruction):
        raise Inexact("a user briefing that does not start with the reference's instruction")
    return text[len(instruction) :]


def user_side(
    rows: list[dict[str, Any]], instruction: str, agent_prompt: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(toolplay `user` block, demonstration dialogues) from the starting bus."""
    demos: list[list[dict[str, Any]]] = []
    goal: str | None = None
    script: list[str] = []
    for row in rows:
        pair = (row["sender"], row["recipient"])
        if pair == ("SYSTEM", "EXECUTION_ENVIRONMENT"):
            continue
        if pair == ("SYSTEM", "AGENT"):
            if row["content"] != agent_prompt:
                raise Inexact("an agent prompt other than the reference's default")
            continue
        if row["visible_to"] == ["USER"]:
            if pair == ("SYSTEM", "USER"):
                demos.append([])
            demos[-1].append(row)
            continue
        if pair == ("SYSTEM", "USER"):
            goal = _goal(row["content"], instruction)
        elif pair == ("USER", "AGENT"):
            script.append(row["content"])
        else:
            raise Inexact(f"a starting message {pair}")
    user: dict[str, Any] = {"script": script}
    if goal is not None:
        user["goal"] = goal
    return user, [demonstration(d, instruction) for d in demos]


def categories(scenario: Any) -> list[str]:
    """The scenario's categories, lower case, without the augmentation ones."""
    return [
        _text(c).lower() for c in scenario.categories if _text(c) not in AUGMENTATION_CATEGORIES
    ]


def shown(tools: list[str] | None, known: list[str]) -> tuple[list[str], list[str]]:
    """(the tools toolplay has, in the reference's order; the tools toolplay lacks)."""
    names = [t for t in tools or [] if t != USER_TOOL]
    return [t for t in names if t in known], [t for t in names if t not in known]


def translate(
    name: str,
    scenario: Any,
    variants: dict[str, Any],
    clock: datetime.datetime,
    namespace: Any,
    instruction: str,
    agent_prompt: str,
    known: list[str],
    renames: dict[str, str],
    ranking: list[str],
    commit: str,
) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """(toolplay scenario, its demonstrations, notes on what is not exact)."""
    context = scenario.starting_context
    notes: list[str] = []
    user, demos = user_side(bus(context, namespace), instruction, agent_prompt)
    offered: dict[str, list[str]] = {}
    for setting, variant in variants.items():
        offered[setting], missing = shown(variant.starting_context.tool_allow_list, known)
        if missing:
            notes.append(f"{setting}: offers {', '.join(missing)}, which toolplay lacks")
        augment = [_text(a) for a in variant.starting_context.tool_augmentation_list or []]
        expected = {
            "none": [],
            "distractors_3": [],
            "distractors_10": [],
            "distractors_all": [],
        }.get(setting)
        if expected is not None and augment:
            raise Inexact(f"{setting} carries augmentations {augment}")
    deny = [t for t in context.tool_deny_list or [] if t != USER_TOOL]
    ranked, _ = shown(ranking, known)
    for setting, count in (("distractors_3", 3), ("distractors_10", 10)):
        added = set(offered[setting]) - set(offered["none"])
        if added != set(ranking[:count]) & set(ranked):
            notes.append(
                f"{setting}: the reference's distractors {sorted(added)} are not the "
                f"first {count} of its ranking"
            )
    out: dict[str, Any] = {
        "id": name,
        "categories": categories(scenario),
        "world": world(context, clock, namespace),
        "tools": {
            "allow": sorted(offered["none"]),
            **({"deny": deny} if deny else {}),
            "distractors": ranked,
        },
        "user": user,
        "milestones": milestones(scenario.evaluation.milestone_matcher, renames),
        "minefields": milestones(scenario.evaluation.minefield_matcher, renames),
        "max_turns": scenario.max_messages,
        "metadata": {"toolsandbox": {"name": name, "commit": commit}},
    }
    if not out["minefields"]:
        del out["minefields"]
    notes += ["fixed: " + fix for fix in offer_milestone_tools(out, deny)]
    return out, demos, notes


def offer_milestone_tools(scenario: dict[str, Any], deny: list[str]) -> list[str]:
    """Offer the tools the milestones call but the scenario does not; what was fixed.

    A reference defect: such a scenario cannot be solved in the settings that do not add the
    tool as a distractor (the reference refuses a call to a tool it did not offer).
    """
    offered = scenario["tools"]["allow"]
    missing = sorted(_milestone_tools(scenario["milestones"]) - set(offered) - set(deny))
    if not missing:
        return []
    scenario["tools"]["allow"] = sorted(offered + missing)
    fix = (
        f"offers {', '.join(missing)}: its milestones call it, the reference does not offer it "
        "(unsolvable there unless a distraction setting adds it)"
    )
    scenario["metadata"]["toolsandbox"]["fixed"] = [fix]
    return [fix]


def _milestone_tools(items: list[dict[str, Any]]) -> set[str]:
    """Every tool a milestone's tool-call or argument flow names."""
    found: set[str] = set()
    for item in items:
        for c in item["constraints"]:
            if c["kind"] == "tool_call":
                found |= {option["tool"] for option in c.get("alternatives") or [c]}
            elif c["kind"] == "flow" and c.get("tool"):
                found.add(c["tool"])
    return found
