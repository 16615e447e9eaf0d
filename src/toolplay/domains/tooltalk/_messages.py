"""Messages: search the logged-in user's text messages and send messages to other users."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolplay.domains.tooltalk._common import OWNERS, current_user, has_owner, hex_id
from toolplay.domains.tooltalk._search import search_records
from toolplay.domains.tooltalk._texts import refusal
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.world import World

MESSAGES = "tooltalk_messages"
SENT = "tooltalk_sent_messages"
DATABASE = "Message"


@tool(
    kind="read",
    reads={"session", "tooltalk_accounts", MESSAGES, OWNERS},
    name="SearchMessages",
)
def search_messages(
    world: World,
    query: str | None = None,
    match_type: str = "any",
    sender: str | None = None,
    start_date: str | None = None,
    end_date: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Search the user's received messages; returns the 5 most recent matches.

    Give at least one of query, sender, start_date and end_date.

    Args:
        query: Keywords to look for in the message text.
        match_type: "any" (default) to match any keyword, "all" to need every keyword.
        sender: Only messages sent by this user (a username).
        start_date: Earliest time, as %Y-%m-%d %H:%M:%S.
        end_date: Latest time, as %Y-%m-%d %H:%M:%S.
    """
    username = current_user(world)["username"]
    if not has_owner(world, DATABASE, username):
        return {"messages": []}
    messages = search_records(
        world.find(MESSAGES, {"username": username}),
        now=world.clock,
        date_column="timestamp",
        text=lambda row: [row["message"]],
        query=query,
        match_type=match_type,
        sender=sender,
        start_date=start_date,
        end_date=end_date,
    )
    return {"messages": messages}


@tool(kind="action", reads={"session", "tooltalk_accounts"}, writes={SENT}, name="SendMessage")
def send_message(world: World, receiver: str, message: str) -> dict[str, str]:
    """Send a text message to another user; returns its message_id.

    Args:
        receiver: Who gets the message (a username).
        message: The text to send.
    """
    username = current_user(world)["username"]
    if message == "":
        raise InvalidArgumentError(refusal("empty_message"))
    message_id = hex_id(world, "SendMessage", 8, 8)
    world.insert(
        SENT,
        {
            "username": username,
            "message_id": message_id,
            "receiver": receiver,
            "message": message,
            "timestamp": world.clock.strftime("%Y-%m-%d %H:%M:%S"),
        },
    )
    return {"message_id": message_id}


TOOLS: list[Callable[..., Any]] = [search_messages, send_message]
