"""The contacts table."""

from toolplay.world import TableSchema

CONTACTS = TableSchema(
    "contacts", ("person_id", "name", "phone_number", "relationship", "is_self"), key="person_id"
)
