"""The messages table."""

from toolplay.world import TableSchema

MESSAGES = TableSchema(
    "messages",
    (
        "message_id",
        "sender_person_id",
        "sender_phone_number",
        "recipient_person_id",
        "recipient_phone_number",
        "content",
        "creation_timestamp",
    ),
    key="message_id",
)
