"""Contact book tools: add, modify, remove, search.

As in the reference: names and phone numbers are stored as given and searched exactly as
written ("+1 (415) 555-0123" does not find "+14155550123"); a search needs at least one
criterion; a contact may be marked `is_self` (the user), and a second such entry is refused;
two contacts may share a number (they get different person_ids).
"""

from __future__ import annotations

from typing import Any

from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, NotFoundError
from toolplay.tools._ids import new_id
from toolplay.tools._match import fuzzy_contains
from toolplay.world import Row, World

NAME_THRESHOLD = 0.8
"""How close a name query must be to a stretch of a contact's name (see `_match`)."""


def _existing(world: World, person_id: str) -> Row:
    row = world.find_one("contacts", {"person_id": person_id})
    if row is None:
        raise NotFoundError(f"No contact with person_id {person_id!r}. Search contacts first.")
    return row


def _refuse_second_self(world: World, person_id: str | None = None) -> None:
    for row in world.rows("contacts"):
        if row["is_self"] and row["person_id"] != person_id:
            raise InvalidArgumentError(
                f"{row['name']} (person_id {row['person_id']!r}) is already the user's own "
                "contact; there can be only one."
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
    _validate.not_blank(name, "name")
    number = _validate.phone_number(phone_number)
    if is_self:
        _refuse_second_self(world)
    person_id = new_id(world, "contacts")
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
    _existing(world, person_id)
    values: dict[str, Any] = {}
    if name is not None:
        values["name"] = _validate.not_blank(name, "name")
    if phone_number is not None:
        values["phone_number"] = _validate.phone_number(phone_number)
    if relationship is not None:
        values["relationship"] = relationship
    if is_self is not None:
        if is_self:
            _refuse_second_self(world, person_id)
        values["is_self"] = is_self
    if not values:
        raise InvalidArgumentError(
            "Give at least one of name, phone_number, relationship, is_self."
        )
    world.update("contacts", {"person_id": person_id}, values)


@tool(kind="action", reads={"contacts"}, writes={"contacts"})
def remove_contact(world: World, person_id: str) -> None:
    """Remove a contact from the contact book.

    Args:
        person_id: The contact to remove, as returned by search_contacts.
    """
    _existing(world, person_id)
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

    Names match forgivingly (case, accents, part of the name, small typos).

    Args:
        person_id: The contact's unique id.
        name: The person's name or part of it.
        phone_number: The person's phone number.
        relationship: Relationship to the user, e.g. "boss" (case-insensitive).
        is_self: True to find the user's own contact entry.
    """
    _validate.require_criteria(
        {
            "person_id": person_id,
            "name": name,
            "phone_number": phone_number,
            "relationship": relationship,
            "is_self": is_self,
        }
    )
    number = _validate.phone_number(phone_number) if phone_number is not None else None
    found = []
    for row in world.rows("contacts"):
        if person_id is not None and row["person_id"] != person_id:
            continue
        if name is not None and not fuzzy_contains(name, str(row["name"]), NAME_THRESHOLD):
            continue
        if number is not None and row["phone_number"] != number:
            continue
        if relationship is not None and (
            str(row["relationship"] or "").casefold() != relationship.strip().casefold()
        ):
            continue
        if is_self is not None and bool(row["is_self"]) != is_self:
            continue
        found.append(dict(row))
    return found


TOOLS = [add_contact, modify_contact, remove_contact, search_contacts]
