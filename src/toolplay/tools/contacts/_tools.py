"""Contact book tools: add, modify, remove, search."""

from __future__ import annotations

from typing import Any

from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, NotFoundError
from toolplay.tools._ids import new_id
from toolplay.world import World


def _existing(world: World, person_id: str) -> None:
    if world.find_one("contacts", {"person_id": person_id}) is None:
        raise NotFoundError(f"No contact with person_id {person_id!r}. Search contacts first.")


@tool(kind="action", reads={"contacts"}, writes={"contacts"})
def add_contact(world: World, name: str, phone_number: str, relationship: str | None = None) -> str:
    """Add a person to the contact book and return the new contact's person_id.

    Args:
        name: The person's full name.
        phone_number: The person's phone number, e.g. "+15551234567".
        relationship: How the user knows the person, e.g. "friend" or "mother".
    """
    number = _validate.phone_number(phone_number)
    if not name.strip():
        raise InvalidArgumentError("name must not be empty.")
    person_id = new_id(world, "contacts")
    world.insert(
        "contacts",
        {
            "person_id": person_id,
            "name": name,
            "phone_number": number,
            "relationship": relationship,
            "is_self": False,
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
) -> None:
    """Change a contact's name, phone number or relationship.

    Args:
        person_id: The contact to change, as returned by search_contacts.
        name: New full name.
        phone_number: New phone number.
        relationship: New relationship to the user.
    """
    _existing(world, person_id)
    values: dict[str, Any] = {}
    if name is not None:
        values["name"] = name
    if phone_number is not None:
        values["phone_number"] = _validate.phone_number(phone_number)
    if relationship is not None:
        values["relationship"] = relationship
    if not values:
        raise InvalidArgumentError("Give at least one of name, phone_number, relationship.")
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
    name: str | None = None,
    phone_number: str | None = None,
    relationship: str | None = None,
    is_self: bool | None = None,
) -> list[dict[str, Any]]:
    """Find contacts matching every given criterion (name matches case-insensitively, in part).

    Args:
        name: Part of the person's name.
        phone_number: The person's phone number.
        relationship: Relationship to the user, e.g. "boss".
        is_self: True to find the user's own contact entry.
    """
    number = _validate.phone_number(phone_number) if phone_number is not None else None
    found = []
    for row in world.rows("contacts"):
        if name is not None and name.lower() not in str(row["name"]).lower():
            continue
        if number is not None and row["phone_number"] != number:
            continue
        if relationship is not None and str(row["relationship"]).lower() != relationship.lower():
            continue
        if is_self is not None and bool(row["is_self"]) != is_self:
            continue
        found.append(dict(row))
    return found


TOOLS = [add_contact, modify_contact, remove_contact, search_contacts]
