"""Contact book tools: add, modify, remove, search.

As in the ToolSandbox reference, whose checks and order of checks these follow: phone numbers
must parse as international numbers and are stored and searched exactly as written ("+1 (415)
555-0123" does not find "+14155550123"); a search needs at least one criterion and applies the
criteria in order (person_id, name, phone_number, relationship, is_self), name and relationship
by the reference's fuzzy criterion (`fuzzy_rows`: rapidfuzz's WRatio at least 90, at most 5
rows, best first); a contact may be marked `is_self` (the user), and a second such entry is
refused; two contacts may share a number (they get different person_ids); a modified contact
moves to the end of the book (the reference removes it and adds it again).
"""

from __future__ import annotations

from typing import Any

from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, NotFoundError
from toolplay.tools._ids import new_id
from toolplay.tools._match import fuzzy_rows
from toolplay.world import Row, World

NAME_THRESHOLD = 90.0
"""WRatio (0-100) a name query must reach (the reference's default threshold)."""
RELATIONSHIP_THRESHOLD = 90.0
"""WRatio (0-100) a relationship query must reach (the reference's)."""


def _self_entries(world: World) -> list[Row]:
    return [row for row in world.rows("contacts") if row["is_self"] is True]


def _refuse_second_self(world: World, person_id: str | None = None) -> None:
    for row in _self_entries(world)[:1]:
        if row["person_id"] != person_id:
            raise InvalidArgumentError(
                f"{row['name']} (person_id {row['person_id']!r}) is already the user's own "
                "contact; there can be only one.",
                code="second_self",
            )


@tool(kind="action", reads={"contacts"}, writes={"contacts"})
def add_contact(
    world: World,
    name: str,
    phone_number: str,
    relationship: str | None = None,
    is_self: bool = False,
) -> str:
    """Add a person to the contact book and return the new contact's person_id.

    Args:
        name: The person's full name.
        phone_number: The person's phone number, e.g. "+15551234567".
        relationship: How the user knows the person, e.g. "friend" or "mother".
        is_self: True if the contact is the user themself (there can be only one).
    """
    number = _validate.phone_number(phone_number)
    person_id = new_id(world, "contacts")
    if is_self:
        _refuse_second_self(world)
    world.insert(
        "contacts",
        {
            "person_id": person_id,
            "name": name,
            "phone_number": number,
            "relationship": relationship,
            "is_self": is_self,
        },
    )
    return person_id


@tool(kind="action", reads={"contacts"}, writes={"contacts"})
def modify_contact(
    world: World,
    person_id: str,
    name: str | None = None,
    phone_number: str | None = None,
    relationship: str | None = None,
    is_self: bool | None = None,
) -> None:
    """Change a contact's name, phone number, relationship or is_self; give at least one.

    Args:
        person_id: The contact to change, as returned by search_contacts.
        name: New full name.
        phone_number: New phone number, e.g. "+15551234567".
        relationship: New relationship to the user.
        is_self: True if the contact is the user themself (there can be only one).
    """
    given = {"name": name, "phone_number": phone_number, "relationship": relationship}
    values: dict[str, Any] = {
        k: v for k, v in {**given, "is_self": is_self}.items() if v is not None
    }
    if not values:
        raise InvalidArgumentError(
            "Give at least one of name, phone_number, relationship, is_self.",
            code="modify_contact/no_update",
        )
    if phone_number is not None:
        _validate.phone_number(phone_number)
    if is_self:
        _refuse_second_self(world, person_id)
    if world.find_one("contacts", {"person_id": person_id}) is None:
        raise NotFoundError(
            f"No contact with person_id {person_id!r}. Search contacts first.",
            code="modify_contact_not_found",
            fields={"value_repr": repr(person_id)},
        )
    world.update("contacts", {"person_id": person_id}, values, to_end=True)


@tool(kind="action", reads={"contacts"}, writes={"contacts"})
def remove_contact(world: World, person_id: str) -> None:
    """Remove a contact from the contact book.

    Args:
        person_id: The contact to remove, as returned by search_contacts.
    """
    if world.find_one("contacts", {"person_id": person_id}) is None:
        raise NotFoundError(
            f"No contact with person_id {person_id!r}. Search contacts first.",
            code="remove_contact/not_found",
        )
    world.delete("contacts", {"person_id": person_id})


@tool(kind="read", reads={"contacts"})
def search_contacts(
    world: World,
    person_id: str | None = None,
    name: str | None = None,
    phone_number: str | None = None,
    relationship: str | None = None,
    is_self: bool | None = None,
) -> list[dict[str, Any]]:
    """Find contacts matching every given criterion (give at least one).

    Names and relationships match forgivingly (case, word order, small typos); at most the 5
    closest are returned, closest first.

    Args:
        person_id: The contact's unique id.
        name: The person's name or part of it.
        phone_number: The person's phone number.
        relationship: Relationship to the user, e.g. "boss".
        is_self: True to find the user's own contact entry.
    """
    if phone_number is not None:
        _validate.phone_number(phone_number)
    _validate.require_criteria(
        {
            "person_id": person_id,
            "name": name,
            "phone_number": phone_number,
            "relationship": relationship,
            "is_self": is_self,
        },
        code="search_contacts/no_criteria",
    )
    return [
        dict(row)
        for row in find_contacts(world, person_id, name, phone_number, relationship, is_self)
    ]


def find_contacts(
    world: World,
    person_id: str | None = None,
    name: str | None = None,
    phone_number: str | None = None,
    relationship: str | None = None,
    is_self: bool | None = None,
) -> list[Row]:
    """The contacts `search_contacts` finds (criteria applied in order, each on the rows the
    previous ones kept).
    """
    rows = list(world.rows("contacts"))
    if person_id is not None:
        rows = [row for row in rows if row["person_id"] == person_id]
    if name is not None:
        rows = fuzzy_rows(name, rows, "name", NAME_THRESHOLD)
    if phone_number is not None:
        rows = [row for row in rows if row["phone_number"] == phone_number]
    if relationship is not None:
        rows = fuzzy_rows(relationship, rows, "relationship", RELATIONSHIP_THRESHOLD)
    if is_self is not None:
        rows = [row for row in rows if row["is_self"] == is_self]
    return rows


TOOLS = [add_contact, modify_contact, remove_contact, search_contacts]
