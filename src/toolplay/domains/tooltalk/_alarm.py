"""Alarm: add, delete and find the logged-in user's alarms (times of day, %H:%M:%S)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolplay.domains.tooltalk._common import (
    OWNERS,
    TIME,
    current_user,
    ensure_owner,
    has_owner,
    hex_id,
    lookup_key,
    parse_time,
    record,
)
from toolplay.domains.tooltalk._texts import refusal
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, NotFoundError
from toolplay.world import World

ALARMS = "tooltalk_alarms"
DATABASE = "Alarm"


@tool(
    kind="action",
    reads={"session", "tooltalk_accounts", ALARMS, OWNERS},
    writes={ALARMS, OWNERS},
    name="AddAlarm",
)
def add_alarm(world: World, time: str) -> dict[str, str]:
    """Set an alarm at a time of day; returns its alarm_id (xxxx-xxxx).

    Args:
        time: When the alarm rings, as %H:%M:%S (24-hour clock), e.g. "18:30:00".
    """
    username = current_user(world)["username"]
    parse_time(time, TIME)
    ensure_owner(world, DATABASE, username)
    alarm_id = hex_id(world, "AddAlarm", 4, 4)
    key = {"username": username, "alarm_id": alarm_id}
    if world.find_one(ALARMS, key) is not None:
        world.update(ALARMS, key, {"time": time})
    else:
        world.insert(ALARMS, {**key, "time": time})
    return {"alarm_id": alarm_id}


@tool(
    kind="action",
    reads={"session", "tooltalk_accounts", ALARMS},
    writes={ALARMS},
    name="DeleteAlarm",
)
def delete_alarm(world: World, alarm_id: str) -> dict[str, str]:
    """Delete one of the user's alarms.

    Args:
        alarm_id: The alarm's id, xxxx-xxxx.
    """
    username = current_user(world)["username"]
    if not has_owner(world, DATABASE, username):
        raise NotFoundError(refusal("unknown_alarm", alarm_id=alarm_id))
    if not world.delete(ALARMS, {"username": username, "alarm_id": lookup_key(alarm_id)}):
        raise NotFoundError(refusal("unknown_alarm", alarm_id=alarm_id))
    return {"status": "success"}


@tool(kind="read", reads={"session", "tooltalk_accounts", ALARMS, OWNERS}, name="FindAlarms")
def find_alarms(
    world: World, start_range: str | None = None, end_range: str | None = None
) -> dict[str, list[dict[str, Any]]]:
    """List the user's alarms, optionally only those between two times of day.

    Args:
        start_range: Earliest alarm time to include, as %H:%M:%S.
        end_range: Latest alarm time to include, as %H:%M:%S.
    """
    username = current_user(world)["username"]
    if not has_owner(world, DATABASE, username):
        return {"alarms": []}
    start = parse_time(start_range, TIME) if start_range is not None else None
    end = parse_time(end_range, TIME) if end_range is not None else None
    if start is not None and end is not None and start > end:
        raise InvalidArgumentError(refusal("alarm_range_reversed"))
    found = []
    for row in world.find(ALARMS, {"username": username}):
        at = parse_time(row["time"], TIME)
        if (start is None or at >= start) and (end is None or at <= end):
            found.append(record(row, "username"))
    return {"alarms": found}


TOOLS: list[Callable[..., Any]] = [add_alarm, delete_alarm, find_alarms]
