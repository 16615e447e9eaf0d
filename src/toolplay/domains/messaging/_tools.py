"""Text messaging tools: send to a phone number (needs cellular), search messages.

The sender is the contact marked `is_self` (None when the book has none); the recipient's
person_id is filled in when the number, exactly as written, is in the contact book. Numbers are
stored and searched as given ("+1 (245) 334-4098" is not "+12453344098"), and a search needs
at least one criterion, as in the reference. Timestamps come from the world's frozen clock.
"""

from __future__ import annotations

from typing import Any

from toolplay.domains.settings import require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._ids import new_id
from toolplay.tools._match import fuzzy_contains
from toolplay.world import World

CONTENT_THRESHOLD = 0.7
"""How close a content query must be to a stretch of a message (see `_match`)."""


def _person_id(world: World, phone_number: str) -> str | None:
    for row in world.rows("contacts"):
        if row["phone_number"] == phone_number:
            return str(row["person_id"])
    return None


def _self(world: World) -> tuple[str | None, str | None]:
    row = world.find_one("contacts", {"is_self": True})
    return (None, None) if row is None else (row["person_id"], row["phone_number"])


@tool(kind="action", reads={"settings", "contacts"}, writes={"messages"})
def send_message_with_phone_number(world: World, phone_number: str, content: str) -> str:
    """Send a text message to a phone number and return the new message_id. Needs cellular on.

    Args:
        phone_number: The recipient's phone number, e.g. "+15551234567".
        content: The text of the message.
    """
    number = _validate.phone_number(phone_number)
    _validate.not_blank(content, "content")
    require_setting(world, "cellular", "Cellular service")
    sender_id, sender_number = _self(world)
    message_id = new_id(world, "messages")
    world.insert(
        "messages",
        {
            "message_id": message_id,
            "sender_person_id": sender_id,
            "sender_phone_number": sender_number,
            "recipient_person_id": _person_id(world, number),
            "recipient_phone_number": number,
            "content": content,
            "creation_timestamp": world.clock.timestamp(),
        },
    )
    return message_id


@tool(kind="read", reads={"messages"})
def search_messages(
    world: World,
    message_id: str | None = None,
    sender_person_id: str | None = None,
    sender_phone_number: str | None = None,
    recipient_person_id: str | None = None,
    recipient_phone_number: str | None = None,
    content: str | None = None,
    creation_timestamp_lowerbound: float | None = None,
    creation_timestamp_upperbound: float | None = None,
) -> list[dict[str, Any]]:
    """Find text messages matching every given criterion (give at least one).

    Content matches forgivingly (case, part of the text, small typos).

    Args:
        message_id: The message's unique id.
        sender_person_id: person_id of the sender.
        sender_phone_number: Phone number the message came from.
        recipient_person_id: person_id of the recipient.
        recipient_phone_number: Phone number the message went to.
        content: Text the message contains.
        creation_timestamp_lowerbound: Earliest creation time, as a POSIX timestamp.
        creation_timestamp_upperbound: Latest creation time, as a POSIX timestamp.
    """
    _validate.require_criteria(
        {
            "message_id": message_id,
            "sender_person_id": sender_person_id,
            "sender_phone_number": sender_phone_number,
            "recipient_person_id": recipient_person_id,
            "recipient_phone_number": recipient_phone_number,
            "content": content,
            "creation_timestamp_lowerbound": creation_timestamp_lowerbound,
            "creation_timestamp_upperbound": creation_timestamp_upperbound,
        }
    )
    sender = (
        _validate.phone_number(sender_phone_number, "sender_phone_number")
        if sender_phone_number is not None
        else None
    )
    recipient = (
        _validate.phone_number(recipient_phone_number, "recipient_phone_number")
        if recipient_phone_number is not None
        else None
    )
    low = (
        _validate.timestamp(creation_timestamp_lowerbound, "creation_timestamp_lowerbound")
        if creation_timestamp_lowerbound is not None
        else None
    )
    high = (
        _validate.timestamp(creation_timestamp_upperbound, "creation_timestamp_upperbound")
        if creation_timestamp_upperbound is not None
        else None
    )
    exact = {
        "message_id": message_id,
        "sender_person_id": sender_person_id,
        "recipient_person_id": recipient_person_id,
    }
    found = []
    for row in world.rows("messages"):
        if any(v is not None and row[k] != v for k, v in exact.items()):
            continue
        if sender is not None and row["sender_phone_number"] != sender:
            continue
        if recipient is not None and row["recipient_phone_number"] != recipient:
            continue
        if content is not None and not fuzzy_contains(
            content, str(row["content"]), CONTENT_THRESHOLD
        ):
            continue
        created = row["creation_timestamp"]
        if low is not None and (created is None or created < low):
            continue
        if high is not None and (created is None or created > high):
            continue
        found.append(dict(row))
    return found


TOOLS = [send_message_with_phone_number, search_messages]
