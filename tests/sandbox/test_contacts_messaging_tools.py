"""Contacts and messaging tools: success, bad arguments, nothing changed after a failure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conftest import Sandbox


def test_add_contact_stores_what_it_is_given_and_returns_a_seeded_id(sandbox: Sandbox) -> None:
    first = sandbox.ok(
        "add_contact", name="Priya N", phone_number="+1 (650) 555-0148", relationship="coworker"
    )
    row = sandbox.world.find_one("contacts", {"person_id": first})
    assert row is not None and row["phone_number"] == "+1 (650) 555-0148"
    assert row["is_self"] is False
    again = sandbox.fresh()
    assert again.ok("add_contact", name="Priya N", phone_number="+16505550148") == first


def test_add_contact_refuses_bad_input(sandbox: Sandbox) -> None:
    sandbox.fails("add_contact", "not a valid phone number", name="X", phone_number="12ab")
    # as the reference, a number needs its country code ('+'), whatever its digits
    sandbox.fails("add_contact", "not a valid phone number", name="X", phone_number="6505550148")
    sandbox.fails("add_contact", "only one", name="Me", phone_number="+15550002", is_self=True)
    sandbox.fails("add_contact", "missing required argument 'phone_number'", name="X")
    # the failed calls did not consume ids: the next id equals a fresh world's first id
    assert sandbox.ok("add_contact", name="A", phone_number="+15550001") == sandbox.fresh().ok(
        "add_contact", name="A", phone_number="+15550001"
    )


def test_modify_and_remove_contact(sandbox: Sandbox) -> None:
    sandbox.ok("modify_contact", person_id="c-mia", name="Mia Okafor-Lee")
    assert sandbox.world.find_one("contacts", {"person_id": "c-mia"})["name"] == "Mia Okafor-Lee"
    # as in the reference (it removes the row and adds it again), a modified contact moves last
    assert sandbox.world.rows("contacts")[-1]["person_id"] == "c-mia"
    sandbox.fails("modify_contact", "at least one", person_id="c-mia")
    sandbox.fails("modify_contact", "no contact with person_id", person_id="nobody", name="X")
    sandbox.fails("modify_contact", "only one", person_id="c-mia", is_self=True)
    # as in the reference, two contacts may share a number
    sandbox.ok("modify_contact", person_id="c-mia", phone_number="+14155550142")
    sandbox.ok("remove_contact", person_id="c-bob")
    assert sandbox.world.find_one("contacts", {"person_id": "c-bob"}) is None
    sandbox.fails("remove_contact", "no contact", person_id="c-bob")


def test_is_self_marks_the_user_once(sandbox: Sandbox) -> None:
    sandbox.ok("modify_contact", person_id="self", is_self=False)
    new = sandbox.ok("add_contact", name="Sam P", phone_number="+14085550100", is_self=True)
    assert [r["person_id"] for r in sandbox.ok("search_contacts", is_self=True)] == [new]


def test_search_contacts_is_forgiving_and_conjunctive(sandbox: Sandbox) -> None:
    def names(**arguments: Any) -> list[str]:
        return [row["name"] for row in sandbox.ok("search_contacts", **arguments)]

    assert names(name="bob") == ["Bob Rivera"]
    assert names(name="Bob Riviera") == ["Bob Rivera"]
    assert names(name="Rivera Bob") == ["Bob Rivera"]
    assert names(name="Robert") == []
    assert names(relationship="SISTER") == ["Mia Okafor"]
    assert names(relationship="sisters") == ["Mia Okafor"]
    assert names(phone_number="+14155550142") == ["Bob Rivera"]
    assert names(phone_number="+1 (415) 555-0142") == []  # exact, as in the reference
    assert names(is_self=True) == ["Sam Park"]
    assert names(name="bob", relationship="sister") == []
    sandbox.fails("search_contacts", "no search criteria")
    sandbox.fails("search_contacts", "not a valid phone number", phone_number="call me")


def test_fuzzy_search_keeps_the_five_closest_best_first(sandbox: Sandbox) -> None:
    for n, name in enumerate(["Bob A", "Bob B", "Bob C", "Bob D", "Bob E"]):
        sandbox.ok("add_contact", name=name, phone_number=f"+1415555020{n}")
    found = [row["name"] for row in sandbox.ok("search_contacts", name="Bob")]
    assert len(found) == 5  # the reference's limit (rapidfuzz's default), of six Bobs
    assert found[0] == "Bob Rivera"  # the best score first, ties in book order


def test_send_message_fills_people_and_clock(sandbox: Sandbox) -> None:
    message_id = sandbox.ok(
        "send_message_with_phone_number", phone_number="+14155550142", content="On my way"
    )
    row = sandbox.world.find_one("messages", {"message_id": message_id})
    assert row is not None
    assert row["recipient_person_id"] == "c-bob" and row["sender_person_id"] == "self"
    assert row["recipient_phone_number"] == "+14155550142"
    assert row["creation_timestamp"] == sandbox.now


def test_send_message_stores_the_number_as_given(sandbox: Sandbox) -> None:
    """The reference's rule: "+1 (415) 555-0142" stays as written and matches no contact."""
    message_id = sandbox.ok(
        "send_message_with_phone_number", phone_number="+1 (415) 555-0142", content="On my way"
    )
    row = sandbox.world.find_one("messages", {"message_id": message_id})
    assert row is not None
    assert row["recipient_phone_number"] == "+1 (415) 555-0142"
    assert row["recipient_person_id"] is None
    found = sandbox.ok("search_messages", recipient_phone_number="+1 (415) 555-0142")
    assert [m["message_id"] for m in found] == [message_id]
    assert sandbox.ok("search_messages", recipient_phone_number="+14155550142") == []


def test_send_message_refusals_change_nothing(sandbox: Sandbox) -> None:
    sandbox.fails(
        "send_message_with_phone_number",
        "not a valid phone number",
        phone_number="bob",
        content="hi",
    )
    sandbox.reset(settings=[sandbox.settings_row(cellular=False)])
    sandbox.fails(
        "send_message_with_phone_number",
        "cellular service is turned off",
        phone_number="+14155550142",
        content="hi",
    )
    sandbox.reset(contacts=[])
    sandbox.fails(
        "send_message_with_phone_number",
        "no entry marked is_self",
        phone_number="+14155550142",
        content="hi",
    )


def test_search_messages_by_fields_and_time(sandbox: Sandbox) -> None:
    sandbox.ok(
        "send_message_with_phone_number", phone_number="+14155550142", content="Dinner at 7?"
    )
    sandbox.ok("send_message_with_phone_number", phone_number="+14155550177", content="Call me")
    found = sandbox.ok("search_messages", content="dinner at seven")
    assert [m["content"] for m in found] == ["Dinner at 7?"]
    assert len(sandbox.ok("search_messages", recipient_phone_number="+1 415 555 0177")) == 0
    sandbox.fails(
        "search_messages", "not a valid phone number", recipient_phone_number="4155550177"
    )
    assert len(sandbox.ok("search_messages", recipient_phone_number="+14155550177")) == 1
    assert len(sandbox.ok("search_messages", creation_timestamp_lowerbound=sandbox.now)) == 2
    assert sandbox.ok("search_messages", creation_timestamp_upperbound=sandbox.now - 1) == []
    sandbox.fails("search_messages", "milliseconds", creation_timestamp_lowerbound=1.7e12)
    sandbox.fails("search_messages", "between 1980 and 2050", creation_timestamp_lowerbound=1000.0)
