"""Text messaging tools: send to a phone number (needs cellular), search messages.

As in the ToolSandbox reference, whose checks and order of checks these follow: the number must
parse as an international number (checked before cellular); the sender is the one contact
marked `is_self` (sending fails without exactly one); the recipient's person_id is filled in
when the number, exactly as written, is in the contact book. Numbers are stored and searched as
given ("+1 (245) 334-4098" is not "+12453344098"); a search needs at least one criterion and
applies the criteria in order, content by the reference's fuzzy criterion (`fuzzy_rows`:
rapidfuzz's WRatio at least 50, at most 5 messages, best first), timestamps from 1980 to 2050
as inclusive bounds. Timestamps come from the world's frozen clock.
"""

from __future__ import annotations

from typing import Any

from toolplay.domains.contacts import find_contacts
from toolplay.domains.settings import require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import PreconditionError
from toolplay.tools._ids import new_id
from toolplay.tools._match import fuzzy_rows
from toolplay.world import World

CONTENT_THRESHOLD = 50.0
"""WRatio (0-100) a content query must reach (the reference's)."""


@tool(kind="action", reads={"settings", "contacts"}, writes={"messages"})
def send_message_with_phone_number(world: World, phone_number: str, content: str) -> str:
    """Send a text message to a phone number and return the new message_id. Needs cellular on.

    Args:
        phone_number: The recipient's phone number, e.g. "+15551234567".
        content: The text of the message.
    """
    number = _validate.phone_number(phone_number)
    require_setting(world, "cellular", "Cellular service")
    message_id = new_id(world, "messages")
    me = find_contacts(world, is_self=True)
    if len(me) != 1:
        # toolplay's contact book never holds two: the reference's text for none is exported
        raise PreconditionError(
            "The contact book has no entry marked is_self (the user), so there is no sender.",
            code="no_single_self",
        )
    recipient = find_contacts(world, phone_number=number)
    world.insert(
        "messages",
        {
            "message_id": message_id,
            "sender_person_id": me[0]["person_id"],
            "sender_phone_number": me[0]["phone_number"],
            "recipient_person_id": recipient[0]["person_id"] if recipient else None,
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

    Content matches forgivingly (case, word order, part of the text, small typos); at most the
    5 closest messages are returned, closest first.

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
    for name, number in (
        ("sender_phone_number", sender_phone_number),
        ("recipient_phone_number", recipient_phone_number),
    ):
        if number is not None:
            _validate.phone_number(number, name)
    low, high = creation_timestamp_lowerbound, creation_timestamp_upperbound
    if low is not None:
        low = _validate.timestamp(low, "creation_timestamp_lowerbound")
    if high is not None:
        high = _validate.timestamp(high, "creation_timestamp_upperbound")
    exact = {
        "message_id": message_id,
        "sender_person_id": sender_person_id,
        "sender_phone_number": sender_phone_number,
        "recipient_person_id": recipient_person_id,
        "recipient_phone_number": recipient_phone_number,
    }
    _validate.require_criteria(
        {
            **exact,
            "content": content,
            "creation_timestamp_lowerbound": low,
            "creation_timestamp_upperbound": high,
        },
        code="search_messages/no_criteria",
    )
    rows = list(world.rows("messages"))
    for column, value in exact.items():
        if value is not None:
            rows = [row for row in rows if row[column] == value]
    if content is not None:
        rows = fuzzy_rows(content, rows, "content", CONTENT_THRESHOLD)
    if low is not None:
        rows = [row for row in rows if _at_least(row["creation_timestamp"], low)]
    if high is not None:
        rows = [row for row in rows if _at_most(row["creation_timestamp"], high)]
    return [dict(row) for row in rows]


def _at_least(value: Any, bound: float) -> bool:
    return value is not None and value >= bound


def _at_most(value: Any, bound: float) -> bool:
    return value is not None and value <= bound


TOOLS = [send_message_with_phone_number, search_messages]
