"""Draft a reference solution for each exported ToolSandbox scenario from its milestones.

A helper for writing `src/toolplay/methods/toolsandbox/data/solutions.yaml` (toolplay's own
reference solutions; the reference repository has none): it reads each exported scenario's
milestones in order and writes the calls and replies that meet them, running the calls in a
toolplay world to fill values that flow from one result into a later call or reply. The draft
is a starting point: `toolplay validate --suite toolsandbox` checks every solution, and the
ones it rejects are written by hand. Existing entries of the solutions file are kept unless
`--overwrite` is given.

    PYTHONPATH=src python scripts/draft_toolsandbox_solutions.py [--overwrite] [NAME ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import yaml

from toolplay.catalog import build_catalog
from toolplay.messages import ToolCall
from toolplay.methods.toolsandbox._constraints import extract
from toolplay.methods.toolsandbox._suite import FOLDER

SETTERS = {
    "low_battery_mode": "set_low_battery_mode_status",
    "cellular": "set_cellular_service_status",
    "wifi": "set_wifi_status",
    "location_service": "set_location_service_status",
}
NEXT_TURN = "Thanks. One more thing."


def literal(value: Any) -> Any:
    """The value a call should pass to meet a target (a literal or a similarity spec)."""
    if isinstance(value, dict) and len(value) >= 1:
        for key in ("exact", "rouge", "contains", "close"):
            if key in value:
                return value[key]
        if "one_of" in value:
            return value["one_of"][0]
    return value


def change_calls(constraint: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Calls that make the rows of an added/removed/updated/state constraint true."""
    table, kind = constraint["table"], constraint["kind"]
    calls: list[tuple[str, dict[str, Any]]] = []
    for row in constraint["rows"]:
        row = {k: literal(v) for k, v in row.items()}
        if table == "settings":
            for column in sorted(SETTERS, key=lambda c: c != "low_battery_mode"):
                if column in row:
                    calls.append((SETTERS[column], {"on": row[column]}))
        elif table == "messages" and kind == "added":
            calls.append(
                (
                    "send_message_with_phone_number",
                    {"phone_number": row["recipient_phone_number"], "content": row["content"]},
                )
            )
        elif table == "reminders" and kind == "added":
            args = {
                k: row[k]
                for k in ("content", "reminder_timestamp", "latitude", "longitude")
                if row.get(k) is not None
            }
            calls.append(("add_reminder", args))
        elif table == "contacts" and kind == "added":
            args = {k: row[k] for k in ("name", "phone_number", "relationship") if k in row}
            calls.append(("add_contact", args))
        elif kind == "removed":
            key = "person_id" if table == "contacts" else "reminder_id"
            calls.append((f"remove_{table[:-1]}", {key: row[key]}))
        elif kind == "updated":
            key = "person_id" if table == "contacts" else "reminder_id"
            args = {
                k: v
                for k, v in row.items()
                if k not in ("is_self", "creation_timestamp") and v is not None
            }
            calls.append((f"modify_{table[:-1]}", {key: row[key], **args}))
    return calls


def draft(scenario: dict[str, Any], registry: Any, world: Any) -> list[dict[str, Any]]:
    """The turns of a drafted solution for one exported scenario."""
    turns: list[dict[str, Any]] = [{"user": scenario["user"]["script"][0], "calls": []}]
    results: dict[str, Any] = {}
    milestones = scenario.get("milestones", [])
    for position, milestone in enumerate(milestones):
        calls: list[tuple[str, dict[str, Any]]] = []
        replies: list[Any] = []
        flows = [c for c in milestone["constraints"] if c["kind"] == "flow"]
        for c in milestone["constraints"]:
            if c["kind"] == "tool_call":
                option = c["alternatives"][0] if "alternatives" in c else c
                args = {k: literal(v) for k, v in option.get("arguments", {}).items()}
                for flow in flows:
                    if flow.get("argument") and flow.get("tool") == option["tool"]:
                        found = list(extract(results.get(flow["from"]), flow.get("path", "")))
                        if found:
                            args[flow["argument"]] = found[0]
                calls.append((option["tool"], args))
            elif c["kind"] in ("added", "removed", "updated", "state"):
                calls.extend(change_calls(c))
            elif c["kind"] == "message":
                replies.append(c["content"])
            elif c["kind"] == "flow" and c.get("template"):
                found = list(extract(results.get(c["from"]), c.get("path", "")))
                value = found[0] if found else "?"
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                replies.append(c["template"].replace("{value}", str(value)))
        for number, (name, args) in enumerate(calls):
            world.index += 1
            outcome = registry.execute(world, ToolCall.from_args(f"d{number}", name, args))
            results[milestone["id"]] = outcome.result
            turns[-1]["calls"].append({"name": name, "arguments": args})
        if replies:
            turns[-1]["reply"] = reply_text(replies)
            if position < len(milestones) - 1:
                turns.append({"user": NEXT_TURN, "calls": []})
    if "reply" not in turns[-1]:
        turns[-1]["reply"] = "Done."
    return turns


def reply_text(replies: list[Any]) -> str:
    """One reply meeting every message target (ROUGE text first, then contained texts)."""
    text = next((r for r in replies if isinstance(r, str)), None)
    text = text or next((literal(r) for r in replies if "rouge" in r or "exact" in r), "")
    for r in replies:
        needle = literal(r)
        if isinstance(needle, str) and needle not in text:
            text = f"{text} {needle}".strip()
    return str(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--overwrite", action="store_true")
    args = parser.parse_args()
    catalog = build_catalog([])
    path = FOLDER / "solutions.yaml"
    existing = yaml.safe_load(path.read_text()) if path.exists() else {}
    existing = existing or {}
    for scenario in json.loads((FOLDER / "scenarios.json").read_text()):
        name = scenario["id"]
        if (args.names and name not in args.names) or (name in existing and not args.overwrite):
            continue
        registry = catalog.tools.registry(scenario["world"]["domains"])
        from toolplay.scenarios import WorldSpec

        spec = WorldSpec.model_validate(scenario["world"])
        world = registry.new_world(
            spec.tables, clock=spec.clock, session=spec.session, seed=spec.seed
        )
        existing[name] = draft(scenario, registry, world)
    text = path.read_text() if path.exists() else ""
    header = "".join(line for line in text.splitlines(keepends=True) if line.startswith("#"))
    body = yaml.safe_dump(existing, sort_keys=True, allow_unicode=True, width=100)
    path.write_text(header + body)
    print(f"{len(existing)} solutions in {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
