"""Calendar: create, modify, delete and query the logged-in user's events.

Times are "%Y-%m-%d %H:%M:%S" in the scenario's clock; new or moved events must lie in the
future. The organiser is added to any attendee list given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolplay.domains.tooltalk._common import (
    DATE_TIME,
    OWNERS,
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

EVENTS = "tooltalk_events"
DATABASE = "Calendar"
EVENT_TYPES = ("meeting", "event")
_READS = {"session", "tooltalk_accounts", EVENTS, OWNERS}


def _check_future(world: World, start: str, end: str) -> None:
    start_at, end_at = parse_time(start, DATE_TIME), parse_time(end, DATE_TIME)
    if start_at > end_at:
        raise InvalidArgumentError(refusal("event_times_reversed"))
    if start_at < world.clock or end_at < world.clock:
        raise InvalidArgumentError(refusal("event_in_past"))


def _with_self(attendees: list[str] | None, username: str) -> list[str] | None:
    """The attendees with the organiser added (a new list; the reference's concatenation)."""
    if attendees is None or username in attendees:
        return attendees
    return attendees + [username]  # noqa: RUF005 - the reference's operation, also on odd values


CREATED_EVENT_FIELDS = (
    "event_id",
    "name",
    "event_type",
    "description",
    "start_time",
    "end_time",
    "location",
    "attendees",
)
"""The fields of an event `CreateEvent` makes, in the order the reference's record has them (the
database file's events have another order: the table's)."""


def _existing(world: World, username: str, event_id: Any) -> dict[str, Any]:
    """The user's event `event_id`, looked up as the reference does."""
    if not has_owner(world, DATABASE, username):
        raise NotFoundError(refusal("unknown_event", event_id=event_id))
    row = world.find_one(EVENTS, {"username": username, "event_id": lookup_key(event_id)})
    if row is None:
        raise NotFoundError(refusal("unknown_event", event_id=event_id))
    return dict(row)


@tool(kind="action", reads=_READS, writes={EVENTS, OWNERS}, name="CreateEvent")
def create_event(
    world: World,
    name: str,
    event_type: str,
    start_time: str,
    end_time: str,
    description: str | None = None,
    location: str | None = None,
    attendees: list[str] | None = None,
) -> dict[str, str]:
    """Add an event to the user's calendar; returns its event_id.

    Args:
        name: The event's name.
        event_type: "meeting" or "event"; a meeting needs attendees.
        start_time: When it starts, as %Y-%m-%d %H:%M:%S.
        end_time: When it ends, as %Y-%m-%d %H:%M:%S.
        description: What the event is about (at most 1024 characters).
        location: Where it takes place.
        attendees: Usernames of the people attending; required for a meeting.
    """
    username = current_user(world)["username"]
    if event_type not in EVENT_TYPES:
        raise InvalidArgumentError(refusal("unknown_event_type", event_type=event_type))
    if event_type == "meeting" and not attendees:
        raise InvalidArgumentError(refusal("meeting_without_attendees"))
    _check_future(world, start_time, end_time)
    attendees = _with_self(attendees, username)
    event_id = hex_id(world, "CreateEvent", 8, 4)
    values = (event_id, name, event_type, description, start_time, end_time, location, attendees)
    event = dict(zip(CREATED_EVENT_FIELDS, values, strict=True))
    ensure_owner(world, DATABASE, username)
    key = {"username": username, "event_id": event_id}
    if world.find_one(EVENTS, key) is not None:
        world.update(EVENTS, key, event)
    else:
        world.insert(EVENTS, {"username": username, **event})
    return {"event_id": event_id}


@tool(kind="action", reads=_READS, writes={EVENTS}, name="DeleteEvent")
def delete_event(world: World, event_id: str) -> dict[str, str]:
    """Delete an event from the user's calendar.

    Args:
        event_id: The id of the event to delete.
    """
    username = current_user(world)["username"]
    _existing(world, username, event_id)
    world.delete(EVENTS, {"username": username, "event_id": event_id})
    return {"status": "success"}


@tool(kind="action", reads=_READS, writes={EVENTS}, name="ModifyEvent")
def modify_event(
    world: World,
    event_id: str,
    new_name: str | None = None,
    new_start_time: str | None = None,
    new_end_time: str | None = None,
    new_description: str | None = None,
    new_location: str | None = None,
    new_attendees: list[str] | None = None,
) -> dict[str, str]:
    """Change an existing event; only the fields given change.

    Args:
        event_id: The id of the event to change.
        new_name: The new name.
        new_start_time: The new start, as %Y-%m-%d %H:%M:%S; needs new_end_time too.
        new_end_time: The new end, as %Y-%m-%d %H:%M:%S; needs new_start_time too.
        new_description: The new description.
        new_location: The new location.
        new_attendees: The new list of attendees' usernames.
    """
    username = current_user(world)["username"]
    _existing(world, username, event_id)
    key = {"username": username, "event_id": event_id}
    # Field by field, as the reference changes its record: a refusal keeps what came before.
    if new_name is not None:
        world.update(EVENTS, key, {"name": new_name})
    if new_start_time is not None:
        if new_end_time is None:
            raise InvalidArgumentError(refusal("new_end_time_missing"))
        _check_future(world, new_start_time, new_end_time)
        world.update(EVENTS, key, {"start_time": new_start_time})
    if new_end_time is not None:
        if new_start_time is None:
            raise InvalidArgumentError(refusal("new_start_time_missing"))
        world.update(EVENTS, key, {"end_time": new_end_time})
    if new_description is not None:
        world.update(EVENTS, key, {"description": new_description})
    if new_location is not None:
        world.update(EVENTS, key, {"location": new_location})
    if new_attendees is not None:
        world.update(EVENTS, key, {"attendees": _with_self(new_attendees, username)})
    return {"status": "success"}


@tool(kind="read", reads=_READS, name="QueryCalendar")
def query_calendar(world: World, start_time: str, end_time: str) -> dict[str, Any]:
    """List the user's events that start, end or run within a time range.

    Args:
        start_time: Start of the range, as %Y-%m-%d %H:%M:%S.
        end_time: End of the range, as %Y-%m-%d %H:%M:%S.
    """
    username = current_user(world)["username"]
    if not has_owner(world, DATABASE, username):
        raise NotFoundError(refusal("no_calendar", username=username))
    start, end = parse_time(start_time, DATE_TIME), parse_time(end_time, DATE_TIME)
    if start > end:
        raise InvalidArgumentError(refusal("event_times_reversed"))
    events = []
    for row in world.find(EVENTS, {"username": username}):
        event_start = parse_time(row["start_time"], DATE_TIME)
        event_end = parse_time(row["end_time"], DATE_TIME)
        if (
            start <= event_start <= end
            or start <= event_end <= end
            or (event_start <= start and event_end >= end)
        ):
            events.append(record(row, "username"))
    return {"events": events}


TOOLS: list[Callable[..., Any]] = [create_event, delete_event, modify_event, query_calendar]
