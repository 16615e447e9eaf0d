"""Reminder tools: add, modify, remove, search.

Times are POSIX timestamps (the time utilities convert dates); a reminder may carry the
coordinates of a place ("remind me when I get to the office"). `creation_timestamp` is the
frozen clock's now, refreshed when a reminder is modified, as in the reference.
"""

from __future__ import annotations

from typing import Any

from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, NotFoundError
from toolplay.tools._ids import new_id
from toolplay.tools._match import fuzzy_contains
from toolplay.world import World

CONTENT_THRESHOLD = 0.7
"""How close a content query must be to a stretch of a reminder (see `_match`)."""
COORDINATE_TOLERANCE = 1e-4
"""Degrees (about 10 m): coordinates this close count as the same place when searching."""


def _existing(world: World, reminder_id: str) -> None:
    if world.find_one("reminders", {"reminder_id": reminder_id}) is None:
        raise NotFoundError(
            f"No reminder with reminder_id {reminder_id!r}. Search reminders first."
        )


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
        latitude: Latitude of a place the reminder is tied to (give longitude too).
        longitude: Longitude of a place the reminder is tied to (give latitude too).
    """
    _validate.not_blank(content, "content")
    due = _validate.timestamp(reminder_timestamp, "reminder_timestamp")
    point = _validate.coordinates(latitude, longitude)
    reminder_id = new_id(world, "reminders")
    world.insert(
        "reminders",
        {
            "reminder_id": reminder_id,
            "content": content,
            "creation_timestamp": world.clock.timestamp(),
            "reminder_timestamp": due,
            "latitude": point[0] if point else None,
            "longitude": point[1] if point else None,
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
        latitude: New latitude of the reminder's place (give longitude too).
        longitude: New longitude of the reminder's place (give latitude too).
    """
    _existing(world, reminder_id)
    values: dict[str, Any] = {}
    if content is not None:
        values["content"] = _validate.not_blank(content, "content")
    if reminder_timestamp is not None:
        values["reminder_timestamp"] = _validate.timestamp(reminder_timestamp, "reminder_timestamp")
    point = _validate.coordinates(latitude, longitude)
    if point is not None:
        values["latitude"], values["longitude"] = point
    if not values:
        raise InvalidArgumentError(
            "Give at least one of content, reminder_timestamp, latitude and longitude."
        )
    values["creation_timestamp"] = world.clock.timestamp()
    world.update("reminders", {"reminder_id": reminder_id}, values)


@tool(kind="action", reads={"reminders"}, writes={"reminders"})
def remove_reminder(world: World, reminder_id: str) -> None:
    """Remove a reminder.

    Args:
        reminder_id: The reminder to remove, as returned by search_reminder.
    """
    _existing(world, reminder_id)
    world.delete("reminders", {"reminder_id": reminder_id})


def _within(value: Any, low: float | None, high: float | None) -> bool:
    if low is None and high is None:
        return True
    if value is None:
        return False
    return (low is None or value >= low) and (high is None or value <= high)


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

    Content matches forgivingly (case, part of the text, small typos); timestamps by range.

    Args:
        reminder_id: The reminder's unique id.
        content: Text the reminder contains.
        creation_timestamp_lowerbound: Earliest creation time, as a POSIX timestamp.
        creation_timestamp_upperbound: Latest creation time, as a POSIX timestamp.
        reminder_timestamp_lowerbound: Earliest due time, as a POSIX timestamp.
        reminder_timestamp_upperbound: Latest due time, as a POSIX timestamp.
        latitude: Latitude of the reminder's place (give longitude too).
        longitude: Longitude of the reminder's place (give latitude too).
    """
    _validate.require_criteria(
        {
            "reminder_id": reminder_id,
            "content": content,
            "creation_timestamp_lowerbound": creation_timestamp_lowerbound,
            "creation_timestamp_upperbound": creation_timestamp_upperbound,
            "reminder_timestamp_lowerbound": reminder_timestamp_lowerbound,
            "reminder_timestamp_upperbound": reminder_timestamp_upperbound,
            "latitude": latitude,
            "longitude": longitude,
        }
    )
    bounds = {
        name: _validate.timestamp(value, name) if value is not None else None
        for name, value in (
            ("creation_timestamp_lowerbound", creation_timestamp_lowerbound),
            ("creation_timestamp_upperbound", creation_timestamp_upperbound),
            ("reminder_timestamp_lowerbound", reminder_timestamp_lowerbound),
            ("reminder_timestamp_upperbound", reminder_timestamp_upperbound),
        )
    }
    point = _validate.coordinates(latitude, longitude)
    found = []
    for row in world.rows("reminders"):
        if reminder_id is not None and row["reminder_id"] != reminder_id:
            continue
        if content is not None and not fuzzy_contains(
            content, str(row["content"]), CONTENT_THRESHOLD
        ):
            continue
        if not _within(
            row["creation_timestamp"],
            bounds["creation_timestamp_lowerbound"],
            bounds["creation_timestamp_upperbound"],
        ) or not _within(
            row["reminder_timestamp"],
            bounds["reminder_timestamp_lowerbound"],
            bounds["reminder_timestamp_upperbound"],
        ):
            continue
        if point is not None and (
            row["latitude"] is None
            or abs(row["latitude"] - point[0]) > COORDINATE_TOLERANCE
            or abs(row["longitude"] - point[1]) > COORDINATE_TOLERANCE
        ):
            continue
        found.append(dict(row))
    return found


TOOLS = [add_reminder, modify_reminder, remove_reminder, search_reminder]
