"""Migrations of older scenario files, applied before validation so they load unchanged.

Settings setters used to take `enabled`; they take `on`, as the reference's do (the schema a
model is evaluated on should be the benchmark's). A file that still says `enabled` for one of
these tools — in a reference call, a `tool_call` constraint or alternative, a `flow`
argument, or an AutoDE label, step or `accept` slot — reads as `on`. So does an unquoted YAML
`on:` key, which YAML 1.1 (PyYAML) reads as the boolean `true`.
"""

from __future__ import annotations

from typing import Any

SETTERS = frozenset(
    {
        "set_cellular_service_status",
        "set_wifi_status",
        "set_location_service_status",
        "set_low_battery_mode_status",
    }
)
OLD, NEW = "enabled", "on"


def _is_old(key: Any) -> bool:
    return key is True or (isinstance(key, str) and key == OLD)


def _renamed(arguments: Any) -> Any:
    if not isinstance(arguments, dict) or NEW in arguments:
        return arguments
    if sum(1 for k in arguments if _is_old(k)) != 1:
        return arguments
    return {(NEW if _is_old(k) else k): v for k, v in arguments.items()}


def rename_setter_slots(call: Any) -> Any:
    """An AutoDE call (`{function: {slot: value}}`) with a setter's `enabled` slot as `on`."""
    if isinstance(call, dict) and len(call) == 1:
        ((name, slots),) = call.items()
        if name in SETTERS:
            return {name: _renamed(slots)}
    return call


def _call(item: Any, name_key: str) -> Any:
    if isinstance(item, dict) and item.get(name_key) in SETTERS and "arguments" in item:
        return {**item, "arguments": _renamed(item["arguments"])}
    return item


def _constraint(item: Any) -> Any:
    if not isinstance(item, dict):
        return item
    kind = item.get("kind")
    if kind == "tool_call":
        item = _call(item, "tool")
        if isinstance(item.get("alternatives"), list):
            item = {**item, "alternatives": [_call(a, "tool") for a in item["alternatives"]]}
    elif kind == "flow" and item.get("tool") in SETTERS and item.get("argument") == OLD:
        item = {**item, "argument": NEW}
    return item


def _milestones(items: Any) -> Any:
    if not isinstance(items, list):
        return items
    out = []
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("constraints"), list):
            item = {**item, "constraints": [_constraint(c) for c in item["constraints"]]}
        out.append(item)
    return out


def migrate_setter_arguments(data: Any) -> Any:
    """The scenario mapping with `enabled` renamed to `on` wherever a setter is called."""
    if not isinstance(data, dict):
        return data
    data = dict(data)
    for field in ("milestones", "minefields"):
        if field in data:
            data[field] = _milestones(data[field])
    if isinstance(data.get("reference"), list):
        data["reference"] = [
            {**turn, "calls": [_call(c, "name") for c in turn["calls"]]}
            if isinstance(turn, dict) and isinstance(turn.get("calls"), list)
            else turn
            for turn in data["reference"]
        ]
    return data
