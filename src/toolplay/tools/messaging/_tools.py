"""Text messaging tools: send to a phone number (needs cellular), search messages."""

from __future__ import annotations

from typing import Any

from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.tools._ids import new_id
from toolplay.tools.settings import require_setting
from toolplay.world import World


def _person_id(world: World, phone_number: str) -> str | None:
    row = world.find_one("contacts", {"phone_number": phone_number})
    return None if row is None else str(row["person_id"])


def _self(world: World) -> tuple[str | None, str | None]:
    row = world.find_one("contacts", {"is_self": True})
    return (None, None) if row is None else (row["person_id"], row["phone_number"])


@tool(kind="action", reads={"settings", "contacts"}, writes={"messages"})
def send_message_with_phone_number(world: World, phone_number: str, content: str) -> str:
    """Send a text message to a phone number and return the new message_id.

    Args:
        phone_number: The recipient's phone number, e.g. "+15551234567".
        content: The text of the message.
    """
    number = _validate.phone_number(phone_number)
    if not content.strip():
        raise InvalidArgumentError("content must not be empty.")
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
    sender_phone_number: str | None = None,
    recipient_phone_number: str | None = None,
    content: str | None = None,
) -> list[dict[str, Any]]:
    """Find text messages matching every given criterion (content matches in part).

    Args:
        sender_phone_number: Phone number the message came from.
        recipient_phone_number: Phone number the message went to.
        content: Text the message contains (case-insensitive).
    """
    sender = _validate.phone_number(sender_phone_number) if sender_phone_number else None
    recipient = _validate.phone_number(recipient_phone_number) if recipient_phone_number else None
    found = []
    for row in world.rows("messages"):
        if sender is not None and row["sender_phone_number"] != sender:
            continue
        if recipient is not None and row["recipient_phone_number"] != recipient:
            continue
        if content is not None and content.lower() not in str(row["content"]).lower():
            continue
        found.append(dict(row))
    return found


TOOLS = [send_message_with_phone_number, search_messages]
