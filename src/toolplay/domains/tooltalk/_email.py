"""Email: search the logged-in user's inbox and send email."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolplay.domains.tooltalk._account import valid_email
from toolplay.domains.tooltalk._common import OWNERS, current_user, has_owner, hex_id
from toolplay.domains.tooltalk._search import search_records
from toolplay.domains.tooltalk._texts import refusal
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.world import World

INBOX = "tooltalk_inbox"
SENT = "tooltalk_sent_emails"
DATABASE = "Email"


@tool(kind="read", reads={"session", "tooltalk_accounts", INBOX, OWNERS}, name="SearchInbox")
def search_inbox(
    world: World,
    query: str | None = None,
    match_type: str = "any",
    sender: str | None = None,
    start_date: str | None = None,
    end_date: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Search the user's inbox; returns the 5 most recent matching emails.

    Give at least one of query, sender, start_date and end_date.

    Args:
        query: Keywords to look for in the subject or body.
        match_type: "any" (default) to match any keyword, "all" to need every keyword.
        sender: Only emails sent from this address.
        start_date: Earliest date, as %Y-%m-%d %H:%M:%S.
        end_date: Latest date, as %Y-%m-%d %H:%M:%S.
    """
    username = current_user(world)["username"]
    rows = world.find(INBOX, {"username": username})
    if not has_owner(world, DATABASE, username) or not rows:
        return {"emails": []}
    emails = search_records(
        rows,
        now=world.clock,
        date_column="date",
        text=lambda row: [row["body"], row["subject"]],
        query=query,
        match_type=match_type,
        sender=sender,
        start_date=start_date,
        end_date=end_date,
    )
    return {"emails": emails}


@tool(kind="action", reads={"session", "tooltalk_accounts"}, writes={SENT}, name="SendEmail")
def send_email(world: World, to: list[str], subject: str, body: str) -> dict[str, str]:
    """Send an email from the logged-in user; returns its email_id.

    Args:
        to: The recipients' email addresses.
        subject: The subject line.
        body: The text of the email.
    """
    username = current_user(world)["username"]
    for address in to:
        if not valid_email(address):
            raise InvalidArgumentError(refusal("bad_recipient", email=address))
    email_id = hex_id(world, "SendEmail", 2, 4, 8)
    world.insert(
        SENT,
        {
            "username": username,
            "email_id": email_id,
            "to": list(to),
            "subject": subject,
            "body": body,
            "date": world.clock.strftime("%Y-%m-%d %H:%M:%S"),
        },
    )
    return {"email_id": email_id}


TOOLS: list[Callable[..., Any]] = [search_inbox, send_email]
