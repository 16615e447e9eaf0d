"""Reminder tools: add, modify, remove, search.

Times are POSIX timestamps (the time utilities convert dates); a reminder may carry the
coordinates of a place ("remind me when I get to the office"). As in the ToolSandbox
reference, whose checks and order of checks these follow: timestamps must lie from 1980 to 2050
and coordinates in range (either coordinate may come alone); `creation_timestamp` is the frozen
clock's now, refreshed when a reminder is modified, and a modified reminder moves to the end of
the list; a search needs at least one criterion and applies them in order, content by the
reference's fuzzy criterion (`fuzzy_rows`: rapidfuzz's WRatio at least 50, at most 5
reminders, best first), timestamps as inclusive bounds, coordinates exactly.
"""

from __future__ import annotations

from typing import Any

from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, NotFoundError
from toolplay.tools._ids import new_id
from toolplay.tools._match import fuzzy_rows
from toolplay.world import World

CONTENT_THRESHOLD = 50.0
"""WRatio (0-100) a content query must reach (the reference's)."""


def _place(latitude: float | None, longitude: float | None) -> dict[str, float]:
    """The given coordinates, each checked (either may come alone)."""
    place = {}
    if latitude is not None:
        place["latitude"] = _validate.latitude(latitude)
    if longitude is not None:
        place["longitude"] = _validate.longitude(longitude)
    return place


@tool(kind="action", writes={"reminders"})
def add_reminder(
    world: World,
    content: str,
    reminder_timestamp: float,
    latitude: float | None = None,
    longitude: float | None = None,
) -> str:
    """Add a reminder and return its reminder_id.

    Args:
        content: What to be reminded of.
        reminder_timestamp: When to be reminded, as a POSIX timestamp in seconds.
        latitude: Latitude of a place the reminder is tied to.
        longitude: Longitude of a place the reminder is tied to.
    """
    due = _validate.timestamp(reminder_timestamp, "reminder_timestamp")
    place = _place(latitude, longitude)
    reminder_id = new_id(world, "reminders")
    world.insert(
        "reminders",
        {
            "reminder_id": reminder_id,
            "content": content,
            "creation_timestamp": world.clock.timestamp(),
            "reminder_timestamp": due,
            "latitude": place.get("latitude"),
            "longitude": place.get("longitude"),
        },
    )
    return reminder_id


@tool(kind="action", reads={"reminders"}, writes={"reminders"})
def modify_reminder(
    world: World,
    reminder_id: str,
    content: str | None = None,
    reminder_timestamp: float | None = None,
    latitude: float | None = None,
    longitude: float | None = None,
) -> None:
    """Change a reminder's content, time or place; give at least one of them.

    Args:
        reminder_id: The reminder to change, as returned by search_reminder.
        content: New content.
        reminder_timestamp: New time to be reminded, as a POSIX timestamp in seconds.
        latitude: New latitude of the reminder's place.
        longitude: New longitude of the reminder's place.
    """
    values: dict[str, Any] = {}
    if reminder_timestamp is not None:
        values["reminder_timestamp"] = _validate.timestamp(reminder_timestamp, "reminder_timestamp")
    values.update(_place(latitude, longitude))
    if content is not None:
        values["content"] = content
    if not values:
        raise InvalidArgumentError(
            "Give at least one of content, reminder_timestamp, latitude and longitude.",
            code="modify_reminder/no_update",
        )
    if world.find_one("reminders", {"reminder_id": reminder_id}) is None:
        raise NotFoundError(
            f"No reminder with reminder_id {reminder_id!r}. Search reminders first.",
            code="modify_reminder_not_found",
            fields={"value_repr": repr(reminder_id)},
        )
    values["creation_timestamp"] = world.clock.timestamp()
    world.update("reminders", {"reminder_id": reminder_id}, values, to_end=True)


@tool(kind="action", reads={"reminders"}, writes={"reminders"})
def remove_reminder(world: World, reminder_id: str) -> None:
    """Remove a reminder.

    Args:
        reminder_id: The reminder to remove, as returned by search_reminder.
    """
    if world.find_one("reminders", {"reminder_id": reminder_id}) is None:
        raise NotFoundError(
            f"No reminder with reminder_id {reminder_id!r}. Search reminders first.",
            code="remove_reminder/not_found",
        )
    world.delete("reminders", {"reminder_id": reminder_id})


@tool(kind="read", reads={"reminders"})
def search_reminder(
    world: World,
    reminder_id: str | None = None,
    content: str | None = None,
    creation_timestamp_lowerbound: float | None = None,
    creation_timestamp_upperbound: float | None = None,
    reminder_timestamp_lowerbound: float | None = None,
    reminder_timestamp_upperbound: float | None = None,
    latitude: float | None = None,
    longitude: float | None = None,
) -> list[dict[str, Any]]:
    """Find reminders matching every given criterion (give at least one).

    Content matches forgivingly (case, word order, part of the text, small typos), at most the
    5 closest reminders, closest first; timestamps by range; coordinates exactly.

    Args:
        reminder_id: The reminder's unique id.
        content: Text the reminder contains.
        creation_timestamp_lowerbound: Earliest creation time, as a POSIX timestamp.
        creation_timestamp_upperbound: Latest creation time, as a POSIX timestamp.
        reminder_timestamp_lowerbound: Earliest due time, as a POSIX timestamp.
        reminder_timestamp_upperbound: Latest due time, as a POSIX timestamp.
        latitude: Latitude of the reminder's place.
        longitude: Longitude of the reminder's place.
    """
    bounds = [
        ("creation_timestamp", "creation_timestamp_lowerbound", creation_timestamp_lowerbound),
        ("creation_timestamp", "creation_timestamp_upperbound", creation_timestamp_upperbound),
        ("reminder_timestamp", "reminder_timestamp_lowerbound", reminder_timestamp_lowerbound),
        ("reminder_timestamp", "reminder_timestamp_upperbound", reminder_timestamp_upperbound),
    ]
    checked = [
        (column, name, None if value is None else _validate.timestamp(value, name))
        for column, name, value in bounds
    ]
    place = _place(latitude, longitude)
    _validate.require_criteria(
        {
            "reminder_id": reminder_id,
            "content": content,
            **{name: value for _, name, value in checked},
            "latitude": latitude,
            "longitude": longitude,
        },
        code="search_reminder/no_criteria",
    )
    rows = list(world.rows("reminders"))
    if reminder_id is not None:
        rows = [row for row in rows if row["reminder_id"] == reminder_id]
    if content is not None:
        rows = fuzzy_rows(content, rows, "content", CONTENT_THRESHOLD)
    for column, name, value in checked:
        if value is not None:
            lower = name.endswith("lowerbound")
            rows = [row for row in rows if _within(row[column], value, lower)]
    for column, value in place.items():
        rows = [row for row in rows if row[column] == value]
    return [dict(row) for row in rows]


def _within(value: Any, bound: float, lower: bool) -> bool:
    if value is None:
        return False
    return bool(value >= bound) if lower else bool(value <= bound)


TOOLS = [add_reminder, modify_reminder, remove_reminder, search_reminder]
