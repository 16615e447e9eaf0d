"""The world tables behind ToolTalk's seven plugins.

ToolTalk keeps one JSON database per plugin, nested `username -> {id -> record}` (weather:
`location -> {date or month -> record}`). Here each database becomes a flat table with the
owning username (or location) as a column, in the file's order, so that results list records
in the same order as the reference. Records keep exactly the reference's fields, and the
columns follow the key order of the official database files, which the reference's results
keep (records the reference's tools create may order their keys otherwise: `CreateEvent`'s).

`tooltalk_owners` remembers which usernames a per-user database has an entry for, even an
empty one: the reference tells "no entry" and "no records" apart in a few places (QueryCalendar
raises for a user without a calendar but returns an empty list for an emptied one).

Sent emails and messages go to outbox tables that no ToolTalk tool reads (the reference keeps
nothing), so every action leaves a trace in the world without changing any tool's answer.
"""

from __future__ import annotations

from toolplay.world import TableSchema

ACCOUNTS = TableSchema(
    "tooltalk_accounts",
    ("username", "password", "session_token", "email", "phone", "name", "verification_code"),
    key="username",
)
ALARMS = TableSchema("tooltalk_alarms", ("username", "alarm_id", "time"), key="alarm_id")
EVENTS = TableSchema(
    "tooltalk_events",
    (
        "username",
        "event_id",
        "name",
        "event_type",
        "start_time",
        "end_time",
        "location",
        "description",
        "attendees",
    ),
    key="event_id",
)
INBOX = TableSchema(
    "tooltalk_inbox",
    ("username", "email_id", "date", "sender", "receivers", "subject", "body"),
    key="email_id",
)
SENT_EMAILS = TableSchema(
    "tooltalk_sent_emails",
    ("username", "email_id", "to", "subject", "body", "date"),
    key="email_id",
)
MESSAGES = TableSchema(
    "tooltalk_messages",
    ("username", "message_id", "timestamp", "sender", "message"),
    key="message_id",
)
SENT_MESSAGES = TableSchema(
    "tooltalk_sent_messages",
    ("username", "message_id", "receiver", "message", "timestamp"),
    key="message_id",
)
REMINDERS = TableSchema(
    "tooltalk_reminders",
    ("username", "reminder_id", "task", "due_date", "status"),
    key="reminder_id",
)
WEATHER = TableSchema("tooltalk_weather", ("location", "date", "high", "low", "conditions"))
HISTORIC_WEATHER = TableSchema(
    "tooltalk_historic_weather",
    (
        "location",
        "month",
        "min_temp",
        "max_temp",
        "record_min_temp",
        "record_max_temp",
        "avg_rainfall",
        "snow_days",
    ),
)
OWNERS = TableSchema("tooltalk_owners", ("database", "username"))


class Nested:
    """How one ToolTalk database file maps onto a table.

    Args:
        table: The table the records go to.
        owner: The column holding the outer key (username or location).
        inner: The column holding the inner key when it is not a field of the record
            (historic weather's month); None when the record carries its own id.
    """

    def __init__(self, table: TableSchema, owner: str, inner: str | None = None) -> None:
        self.table = table
        self.owner = owner
        self.inner = inner

    @property
    def fields(self) -> tuple[str, ...]:
        """The record fields a database entry must have (the table minus the keys)."""
        return tuple(c for c in self.table.columns if c not in (self.owner, self.inner))


DATABASES: dict[str, Nested] = {
    "Alarm": Nested(ALARMS, "username"),
    "Calendar": Nested(EVENTS, "username"),
    "Email": Nested(INBOX, "username"),
    "Message": Nested(MESSAGES, "username"),
    "Reminder": Nested(REMINDERS, "username"),
    "Weather": Nested(WEATHER, "location"),
    "HistoricWeather": Nested(HISTORIC_WEATHER, "location", "month"),
}
"""Nested database files by name (without `.json`); `Account.json` is flat, see ACCOUNTS."""

ACCOUNT_DATABASE = "Account"
"""The flat account database: `username -> account`."""

ACCOUNT_FIELDS = ("username", "email", "phone", "name", "password", "session_token")
"""Fields every account in `Account.json` has (`verification_code` is optional)."""
