"""Reminder: the logged-in user's to-do list (add, complete, delete, list)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolplay.domains.tooltalk._common import (
    DATE_TIME,
    OWNERS,
    MissingEntryError,
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
from toolplay.tools._errors import InvalidArgumentError, NotFoundError, PreconditionError
from toolplay.world import Row, World

REMINDERS = "tooltalk_reminders"
DATABASE = "Reminder"
_READS = {"session", "tooltalk_accounts", REMINDERS, OWNERS}


@tool(kind="action", reads=_READS, writes={REMINDERS, OWNERS}, name="AddReminder")
def add_reminder(world: World, task: str, due_date: str | None = None) -> dict[str, str]:
    """Add a task to the user's reminders; returns its reminder_id.

    Args:
        task: What to be reminded of.
        due_date: When the task is due, as %Y-%m-%d %H:%M:%S.
    """
    username = current_user(world)["username"]
    ensure_owner(world, DATABASE, username)  # before the check, as the reference does
    if due_date is not None:
        try:
            parse_time(due_date, DATE_TIME)
        except InvalidArgumentError as exc:
            raise InvalidArgumentError(refusal("bad_due_date", due_date=due_date)) from exc
    reminder_id = hex_id(world, "AddReminder", 2, 4)
    values = {"task": task, "due_date": due_date, "status": "pending"}
    key = {"username": username, "reminder_id": reminder_id}
    if world.find_one(REMINDERS, key) is not None:
        world.update(REMINDERS, key, values)
    else:
        world.insert(REMINDERS, {**key, **values})
    return {"reminder_id": reminder_id}


def _existing(world: World, username: str, reminder_id: str) -> Row:
    if not has_owner(world, DATABASE, username):
        raise MissingEntryError(f"User {username} has no reminders.", username)
    row = world.find_one(REMINDERS, {"username": username, "reminder_id": lookup_key(reminder_id)})
    if row is None:
        raise NotFoundError(refusal("unknown_reminder", reminder_id=reminder_id))
    return row


@tool(kind="action", reads=_READS, writes={REMINDERS}, name="CompleteReminder")
def complete_reminder(world: World, reminder_id: str) -> dict[str, str]:
    """Mark one of the user's reminders as complete.

    Args:
        reminder_id: The id of the reminder to complete.
    """
    username = current_user(world)["username"]
    row = _existing(world, username, reminder_id)
    if row["status"] == "complete":
        raise PreconditionError(refusal("reminder_completed", reminder_id=reminder_id))
    world.update(
        REMINDERS, {"username": username, "reminder_id": reminder_id}, {"status": "complete"}
    )
    return {"status": "success"}


@tool(kind="action", reads=_READS, writes={REMINDERS}, name="DeleteReminder")
def delete_reminder(world: World, reminder_id: str) -> dict[str, str]:
    """Delete one of the user's reminders.

    Args:
        reminder_id: The id of the reminder to delete.
    """
    username = current_user(world)["username"]
    _existing(world, username, reminder_id)
    world.delete(REMINDERS, {"username": username, "reminder_id": reminder_id})
    return {"status": "success"}


@tool(kind="read", reads=_READS, name="GetReminders")
def get_reminders(world: World) -> dict[str, list[dict[str, Any]]]:
    """List all of the user's reminders with their status ("pending" or "complete")."""
    username = current_user(world)["username"]
    rows = world.find(REMINDERS, {"username": username})
    return {"reminders": [record(row, "username") for row in rows]}


TOOLS: list[Callable[..., Any]] = [add_reminder, complete_reminder, delete_reminder, get_reminders]
