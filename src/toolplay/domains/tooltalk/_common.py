"""What every ToolTalk plugin shares: the logged-in user, seeded ids, owners, time parsing.

Sessions follow the reference's tool executor: the client holds one session token (the world's
session), which the environment passes to every tool that needs a login; it is not a parameter
of any tool (the reference presentation shows it written into calls, as the reference did). A
tool needing a login refuses with the reference executor's text when there is none (its
texts, as all the reference's refusal texts, are data: `_texts.py`).

Ids come from one generator per tool seeded with 489 and created afresh with every world (the
reference re-creates its tools, and so their generators, at every reset). Replaying the ground
truth from a fresh world therefore reproduces every id the dataset recorded.

The tools make the reference's checks in the reference's order, with the same Python operations
on the values a call gives (`str.lower`, `datetime.strptime`, a regular expression, a lookup
by key, list concatenation), so that a value of an unexpected type fails as it failed there.
toolplay's registry validates argument types first, so under toolplay's own presentation only
the reference's refusals are reachable; ToolTalk's reference executor
(`toolplay.methods.tooltalk`) runs the tools on the values as given and shows Python's message,
as the reference did. Writes also happen in the reference's order (a call can write, then
refuse): the registry rolls a failed call back, the reference executor keeps the partial write.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from toolplay.domains.tooltalk._texts import refusal
from toolplay.tools._errors import (
    AuthenticationError,
    InvalidArgumentError,
    NotFoundError,
    PreconditionError,
)
from toolplay.world import Row, World

ID_SEED = 489
"""The reference seeds every tool's random generator with this number."""

OWNERS = "tooltalk_owners"
DATE_TIME = "%Y-%m-%d %H:%M:%S"
TIME = "%H:%M:%S"

AUTH_TOOLS = frozenset(
    {
        "ChangePassword",
        "DeleteAccount",
        "GetAccountInformation",
        "LogoutUser",
        "QueryUser",
        "UpdateAccountInformation",
        "AddAlarm",
        "DeleteAlarm",
        "FindAlarms",
        "CreateEvent",
        "DeleteEvent",
        "ModifyEvent",
        "QueryCalendar",
        "SearchInbox",
        "SendEmail",
        "SearchMessages",
        "SendMessage",
        "AddReminder",
        "CompleteReminder",
        "DeleteReminder",
        "GetReminders",
    }
)
"""Tools that act for the logged-in user (the reference passes them the session token)."""

LOGIN_TOOLS = frozenset({"UserLogin", "RegisterUser"})
"""Tools that start a session (refused while one is open)."""

LOGOUT_TOOLS = frozenset({"LogoutUser", "DeleteAccount"})
"""Tools that end the session when they succeed."""


class MissingEntryError(NotFoundError):
    """A record the reference looked up with a plain dictionary index: it raised `KeyError`.

    toolplay says what is missing (`str(error)`); `reference_text` is what the reference
    showed, the `KeyError`'s text (the key's repr), which its executor shows.
    """

    def __init__(self, message: str, key: Any) -> None:
        super().__init__(message)
        self.reference_text = str(KeyError(key))


def lookup_key(value: Any) -> Any:
    """`value`, usable as a dictionary key.

    The reference keeps records in dictionaries keyed by the usernames and ids a call gives;
    a lookup with an unhashable value (a list, an object) raises a `TypeError`.

    Raises:
        TypeError: `value` is unhashable, with the text a dictionary lookup gives.
    """
    hash(value)
    return value


def install_generators(world: World, tools: tuple[str, ...]) -> None:
    """Give each of `tools` its own generator seeded with ID_SEED (called on every new world)."""
    for name in tools:
        world.set_rng(name, random.Random(ID_SEED))


def hex_id(world: World, tool: str, *widths: int) -> str:
    """An id of dash-joined hex groups drawn from `tool`'s generator, e.g. widths (4, 4)."""
    generator = world.rng(tool)
    return "-".join(f"{generator.randint(0, 16**w - 1):0{w}x}" for w in widths)


def new_session_token(world: World, tool: str) -> str:
    """A session token shaped like the reference's (8-4-4 hex digits)."""
    return hex_id(world, tool, 8, 4, 4)


def account(world: World, username: Any) -> Row | None:
    """The account called `username`, or None (the reference's lookup by key: `lookup_key`)."""
    return world.find_one("tooltalk_accounts", {"username": lookup_key(username)})


def account_for_token(world: World, token: str) -> Row:
    """The account holding session `token`.

    Raises:
        AuthenticationError: no account holds that token.
    """
    row = world.find_one("tooltalk_accounts", {"session_token": token})
    if row is None:
        raise AuthenticationError(refusal("invalid_session_token"))
    return row


def current_user(world: World) -> Row:
    """The logged-in user's account.

    Raises:
        AuthenticationError: nobody is logged in, or the token belongs to no account.
    """
    token = world.session.get("session_token")
    if token is None:
        raise AuthenticationError(refusal("not_logged_in"))
    return account_for_token(world, str(token))


def require_no_session(world: World) -> None:
    """Refuse to open a second session (login and registration)."""
    token = world.session.get("session_token")
    if token is not None:
        username = account_for_token(world, str(token))["username"]
        raise PreconditionError(refusal("second_login", username=username))


def has_owner(world: World, database: str, username: str) -> bool:
    """Whether `database` has an entry (possibly empty) for `username`."""
    return world.find_one(OWNERS, {"database": database, "username": username}) is not None


def ensure_owner(world: World, database: str, username: str) -> None:
    """Create `username`'s (empty) entry in `database` if it has none."""
    if not has_owner(world, database, username):
        world.insert(OWNERS, {"database": database, "username": username})


def parse_time(value: str, pattern: str) -> datetime:
    """Parse `value` with `pattern` as a UTC time (the world clock is UTC too).

    Raises:
        InvalidArgumentError: with Python's own message, which the reference returns as is.
    """
    try:
        return datetime.strptime(value, pattern).replace(tzinfo=UTC)
    except ValueError as exc:
        raise InvalidArgumentError(str(exc)) from exc


def record(row: Row, *drop: str) -> dict[str, Any]:
    """A row as the reference's record: a plain dict without the flattening columns."""
    return {k: v for k, v in row.items() if k not in drop}
