"""ToolTalk's seven plugins (28 tools) over tables loaded from ToolTalk's mock databases.

Tool names are ToolTalk's own (`AddAlarm`, `QueryCalendar`, ...) because the dataset refers to
them. Each plugin is a domain named `tooltalk.<Plugin>`; a ToolTalk scenario offers all seven,
as the reference does by default. Messages of refusals reproduce the reference's exception
texts (the dataset records them and scoring compares them), read from data exported from the
reference's code (`_texts.py`, `data/`). The tools' descriptions are toolplay's own words; the
reference's descriptions are what the `tooltalk` presentation sends (`toolplay.methods.tooltalk`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolplay.domains.tooltalk import (
    _account,
    _alarm,
    _calendar,
    _email,
    _messages,
    _reminder,
    _weather,
)
from toolplay.domains.tooltalk._common import (
    AUTH_TOOLS,
    DATE_TIME,
    ID_SEED,
    LOGIN_TOOLS,
    LOGOUT_TOOLS,
    install_generators,
)
from toolplay.domains.tooltalk._tables import (
    ACCOUNT_DATABASE,
    ACCOUNT_FIELDS,
    ACCOUNTS,
    ALARMS,
    DATABASES,
    EVENTS,
    HISTORIC_WEATHER,
    INBOX,
    MESSAGES,
    OWNERS,
    REMINDERS,
    SENT_EMAILS,
    SENT_MESSAGES,
    WEATHER,
    Nested,
)
from toolplay.tools._decorator import tool_meta
from toolplay.tools._registry import Domain
from toolplay.world import TableSchema, World


def _names(tools: Sequence[Callable[..., Any]]) -> tuple[str, ...]:
    return tuple(meta.name or fn.__name__ for fn in tools if (meta := tool_meta(fn)) is not None)


def _domain(
    plugin: str,
    description: str,
    tables: Sequence[TableSchema],
    tools: Sequence[Callable[..., Any]],
) -> Domain:
    names = _names(tools)

    def setup(world: World) -> None:
        install_generators(world, names)

    return Domain(
        f"tooltalk.{plugin}",
        {table.name: table for table in tables},
        tools,
        description,
        setup=setup,
    )


DOMAINS: tuple[Domain, ...] = (
    _domain(
        "AccountTools",
        "Account management: login, registration, passwords.",
        [ACCOUNTS],
        _account.TOOLS,
    ),
    _domain("Alarm", "Manage the user's alarms.", [ACCOUNTS, ALARMS, OWNERS], _alarm.TOOLS),
    _domain(
        "Calendar",
        "Manage the events in the user's calendar.",
        [ACCOUNTS, EVENTS, OWNERS],
        _calendar.TOOLS,
    ),
    _domain(
        "Email", "Send and search email.", [ACCOUNTS, INBOX, SENT_EMAILS, OWNERS], _email.TOOLS
    ),
    _domain(
        "Messages",
        "Send and search text messages.",
        [ACCOUNTS, MESSAGES, SENT_MESSAGES, OWNERS],
        _messages.TOOLS,
    ),
    _domain(
        "Reminder",
        "Manage the user's to-do reminders.",
        [ACCOUNTS, REMINDERS, OWNERS],
        _reminder.TOOLS,
    ),
    _domain(
        "Weather",
        "Weather of a location: today, forecast, history.",
        [WEATHER, HISTORIC_WEATHER],
        _weather.TOOLS,
    ),
)
"""The seven plugins, in ToolTalk's order."""

DOMAIN_NAMES: tuple[str, ...] = tuple(domain.name for domain in DOMAINS)
"""`tooltalk.AccountTools`, `tooltalk.Alarm`, ... (what a ToolTalk scenario lists)."""

PLUGIN_DOMAINS: dict[str, str] = {
    domain.name.removeprefix("tooltalk."): domain.name for domain in DOMAINS
}
"""ToolTalk plugin name (as in a conversation's `suites_used`) -> domain name."""

__all__ = [
    "ACCOUNTS",
    "ACCOUNT_DATABASE",
    "ACCOUNT_FIELDS",
    "AUTH_TOOLS",
    "DATABASES",
    "DATE_TIME",
    "DOMAINS",
    "DOMAIN_NAMES",
    "ID_SEED",
    "LOGIN_TOOLS",
    "LOGOUT_TOOLS",
    "OWNERS",
    "PLUGIN_DOMAINS",
    "Nested",
]
