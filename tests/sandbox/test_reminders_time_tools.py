"""Reminder and time utility tools: success, bad arguments, nothing changed after failure."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import Sandbox


def test_add_reminder_with_and_without_place(sandbox: Sandbox) -> None:
    rid = sandbox.ok("add_reminder", content="Call the dentist", reminder_timestamp=1715439600)
    row = sandbox.world.find_one("reminders", {"reminder_id": rid})
    assert row is not None and row["reminder_timestamp"] == 1715439600.0
    assert row["creation_timestamp"] == sandbox.now and row["latitude"] is None
    rid = sandbox.ok(
        "add_reminder",
        content="Milk",
        reminder_timestamp=1715475600.0,
        latitude=37.3236,
        longitude=-122.0385,
    )
    assert sandbox.world.find_one("reminders", {"reminder_id": rid})["longitude"] == -122.0385


def test_add_reminder_refuses_bad_input(sandbox: Sandbox) -> None:
    sandbox.fails("add_reminder", "milliseconds", content="x", reminder_timestamp=1715439600000)
    sandbox.fails("add_reminder", "between 1980 and 2050", content="x", reminder_timestamp=100.0)
    sandbox.fails(
        "add_reminder",
        "not a latitude",
        content="x",
        reminder_timestamp=1715439600,
        latitude=137.0,
        longitude=1.0,
    )
    sandbox.fails(
        "add_reminder", "must be of type number", content="x", reminder_timestamp="tomorrow"
    )


def test_modify_remove_and_search_reminders(sandbox: Sandbox) -> None:
    sandbox.ok("modify_reminder", reminder_id="r-gym", reminder_timestamp=1715473800.0)
    row = sandbox.world.find_one("reminders", {"reminder_id": "r-gym"})
    assert row["reminder_timestamp"] == 1715473800.0 and row["creation_timestamp"] == sandbox.now
    assert sandbox.world.rows("reminders")[-1] is row  # moved last, as in the reference
    sandbox.fails("modify_reminder", "at least one", reminder_id="r-gym")
    sandbox.fails("modify_reminder", "no reminder", reminder_id="r-x", content="y")
    assert [r["reminder_id"] for r in sandbox.ok("search_reminder", content="oat mlk")] == [
        "r-shop"
    ]
    found = sandbox.ok("search_reminder", reminder_timestamp_lowerbound=1715473800.0)
    assert [r["reminder_id"] for r in found] == ["r-shop", "r-gym"]  # table order: r-gym moved
    # coordinates match exactly, and one alone is a criterion (as in the reference)
    assert sandbox.ok("search_reminder", latitude=37.32361, longitude=-122.0385) == []
    assert [r["reminder_id"] for r in sandbox.ok("search_reminder", longitude=-122.0385)] == [
        "r-shop"
    ]
    sandbox.ok("remove_reminder", reminder_id="r-shop")
    sandbox.fails("remove_reminder", "no reminder", reminder_id="r-shop")
    assert [r["reminder_id"] for r in sandbox.ok("search_reminder", content="gym")] == ["r-gym"]
    sandbox.fails("search_reminder", "no search criteria")


def test_time_tools_use_the_frozen_clock_and_its_zone(sandbox: Sandbox) -> None:
    assert sandbox.ok("get_current_timestamp") == sandbox.now
    parts = sandbox.ok("timestamp_to_datetime_info", timestamp=sandbox.now)
    assert parts == {
        "year": 2024,
        "month": 5,
        "day": 10,
        "hour": 9,
        "minute": 30,
        "second": 0,
        "isoweekday": 5,
    }
    assert (
        sandbox.ok(
            "datetime_info_to_timestamp", year=2024, month=5, day=10, hour=9, minute=30, second=0
        )
        == sandbox.now
    )
    assert sandbox.ok("shift_timestamp", timestamp=sandbox.now, days=1, hours=-1) == (
        sandbox.now + 23 * 3600
    )
    assert sandbox.ok(
        "timestamp_diff", timestamp_0=sandbox.now, timestamp_1=sandbox.now + 90061
    ) == {"days": 1, "seconds": 3661}
    assert sandbox.ok("timestamp_diff", timestamp_0=sandbox.now + 1, timestamp_1=sandbox.now) == {
        "days": -1,
        "seconds": 86399,
    }


def test_time_tools_refuse_bad_input(sandbox: Sandbox) -> None:
    midnight = {"hour": 0, "minute": 0, "second": 0}
    sandbox.fails(
        "datetime_info_to_timestamp", "day is out of range", year=2024, month=2, day=30, **midnight
    )
    # all six parts are required, as in the reference
    sandbox.fails(
        "datetime_info_to_timestamp", "missing required argument 'hour'", year=2024, month=2, day=3
    )
    sandbox.fails("timestamp_to_datetime_info", "between 1980 and 2050", timestamp=-5)
    sandbox.fails("shift_timestamp", "too large", timestamp=sandbox.now, weeks=10**12)
    sandbox.fails("timestamp_diff", "timestamp_1", timestamp_0=sandbox.now, timestamp_1=1e15)
    sandbox.fails("get_current_timestamp", "unexpected argument", zone="UTC")
