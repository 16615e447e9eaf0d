"""The reminders table."""

from toolplay.world import TableSchema

REMINDERS = TableSchema(
    "reminders",
    (
        "reminder_id",
        "content",
        "creation_timestamp",
        "reminder_timestamp",
        "latitude",
        "longitude",
    ),
    key="reminder_id",
)
