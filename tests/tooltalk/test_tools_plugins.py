"""Alarm, Calendar, Email, Messages, Reminder and Weather tools on a small world."""

from __future__ import annotations

import random
from typing import Any

import pytest


def seeded(*widths: int, draws: int = 1) -> str:
    """The `draws`-th id a fresh generator seeded with 489 gives for these hex widths."""
    generator = random.Random(489)
    value = ""
    for _ in range(draws):
        value = "-".join(f"{generator.randint(0, 16**w - 1):0{w}x}" for w in widths)
    return value


ALARMS = [
    {"username": "alice", "alarm_id": "0000-0001", "time": "07:30:00"},
    {"username": "alice", "alarm_id": "0000-0002", "time": "09:00:00"},
    {"username": "bob", "alarm_id": "0000-0003", "time": "06:00:00"},
]
OWNERS = [{"database": d, "username": "alice"} for d in ("Alarm", "Calendar", "Email", "Message")]
EVENT = {
    "username": "alice",
    "event_id": "e1",
    "name": "Standup",
    "event_type": "meeting",
    "description": None,
    "start_time": "2023-09-12 10:00:00",
    "end_time": "2023-09-12 10:30:00",
    "location": None,
    "attendees": ["alice", "bob"],
}


def test_alarms_add_find_delete(make_world: Any, run: Any) -> None:
    registry, world = make_world(tooltalk_alarms=ALARMS, tooltalk_owners=OWNERS)
    assert run(registry, world, "AddAlarm", time="08:00:00").result == {"alarm_id": seeded(4, 4)}
    assert run(registry, world, "AddAlarm", time="08:05:00").result == {
        "alarm_id": seeded(4, 4, draws=2)
    }
    found = run(registry, world, "FindAlarms", start_range="07:45:00", end_range="08:30:00")
    assert [a["time"] for a in found.result["alarms"]] == ["08:00:00", "08:05:00"]
    assert len(run(registry, world, "FindAlarms").result["alarms"]) == 4
    assert run(registry, world, "DeleteAlarm", alarm_id="0000-0001").result == {"status": "success"}
    assert run(registry, world, "DeleteAlarm", alarm_id="0000-0003").error == (
        "Alarm 0000-0003 not found."
    )


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("AddAlarm", {"time": "8am"}, "time data '8am' does not match format '%H:%M:%S'"),
        (
            "FindAlarms",
            {"start_range": "09:00:00", "end_range": "08:00:00"},
            "Start range must be earlier than end range.",
        ),
        ("DeleteAlarm", {"alarm_id": "nope"}, "Alarm nope not found."),
    ],
)
def test_alarm_refusals_change_nothing(
    make_world: Any, run: Any, name: str, arguments: dict[str, Any], message: str
) -> None:
    registry, world = make_world(tooltalk_alarms=ALARMS, tooltalk_owners=OWNERS)
    before = world.state().digest()
    assert run(registry, world, name, **arguments).error == message
    assert world.state().digest() == before


def test_find_alarms_without_alarm_entry_is_empty(make_world: Any, run: Any) -> None:
    registry, world = make_world(logged_in="bob", tooltalk_alarms=ALARMS, tooltalk_owners=OWNERS)
    # bob has a row but no owner entry in this hand-built world: like the reference's missing
    # key, the search returns nothing before looking at the (bad) range
    assert run(registry, world, "FindAlarms", start_range="bad").result == {"alarms": []}


def test_create_event_adds_organiser_and_checks_times(make_world: Any, run: Any) -> None:
    registry, world = make_world(tooltalk_events=[EVENT], tooltalk_owners=OWNERS)
    out = run(
        registry,
        world,
        "CreateEvent",
        name="Review",
        event_type="meeting",
        start_time="2023-09-12 14:00:00",
        end_time="2023-09-12 15:00:00",
        attendees=["bob"],
    )
    assert out.result == {"event_id": seeded(8, 4)}
    row = world.find_one("tooltalk_events", {"event_id": seeded(8, 4)})
    assert row["attendees"] == ["bob", "alice"]
    assert row["description"] is None


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"event_type": "party"}, "Event type party not supported."),
        ({"event_type": "meeting"}, "Meeting must have attendees."),
        ({"start_time": "2023-09-12 16:00:00"}, "Start time must be before end time."),
        (
            {"start_time": "2023-09-10 10:00:00", "end_time": "2023-09-10 11:00:00"},
            "Start time and end time must be in the future.",
        ),
        (
            {"start_time": "tomorrow"},
            "time data 'tomorrow' does not match format '%Y-%m-%d %H:%M:%S'",
        ),
    ],
)
def test_create_event_refusals(
    make_world: Any, run: Any, arguments: dict[str, Any], message: str
) -> None:
    registry, world = make_world(tooltalk_events=[EVENT], tooltalk_owners=OWNERS)
    before = world.state().digest()
    base = {
        "name": "Lunch",
        "event_type": "event",
        "start_time": "2023-09-12 12:00:00",
        "end_time": "2023-09-12 13:00:00",
    }
    assert run(registry, world, "CreateEvent", **{**base, **arguments}).error == message
    assert world.state().digest() == before


def test_modify_event_and_its_rules(make_world: Any, run: Any) -> None:
    registry, world = make_world(tooltalk_events=[EVENT], tooltalk_owners=OWNERS)
    before = world.state().digest()
    out = run(
        registry,
        world,
        "ModifyEvent",
        event_id="e1",
        new_name="X",
        new_start_time=EVENT["start_time"],
    )
    assert out.error == "new_end_time must be provided if new_start_time is provided."
    out = run(registry, world, "ModifyEvent", event_id="e1", new_end_time="2023-09-12 11:00:00")
    assert out.error == "new_start_time must be provided if new_end_time is provided."
    assert run(registry, world, "ModifyEvent", event_id="zz").error == "Event zz not found."
    assert world.state().digest() == before  # the failed rename above did not stick
    out = run(
        registry,
        world,
        "ModifyEvent",
        event_id="e1",
        new_name="Daily standup",
        new_start_time="2023-09-12 11:00:00",
        new_end_time="2023-09-12 11:30:00",
        new_attendees=["carol"],
    )
    assert out.result == {"status": "success"}
    row = world.find_one("tooltalk_events", {"event_id": "e1"})
    assert (row["name"], row["start_time"], row["attendees"]) == (
        "Daily standup",
        "2023-09-12 11:00:00",
        ["carol", "alice"],
    )


def test_query_calendar_overlaps_and_missing_calendar(make_world: Any, run: Any) -> None:
    registry, world = make_world(tooltalk_events=[EVENT], tooltalk_owners=OWNERS)
    query = {"start_time": "2023-09-12 10:15:00", "end_time": "2023-09-12 12:00:00"}
    events = run(registry, world, "QueryCalendar", **query).result["events"]
    assert [e["event_id"] for e in events] == ["e1"]
    assert "username" not in events[0]
    inside = {"start_time": "2023-09-12 10:05:00", "end_time": "2023-09-12 10:10:00"}
    assert len(run(registry, world, "QueryCalendar", **inside).result["events"]) == 1
    assert run(registry, world, "DeleteEvent", event_id="e1").ok
    assert run(registry, world, "QueryCalendar", **query).result == {"events": []}
    registry, world = make_world(logged_in="bob", tooltalk_events=[EVENT], tooltalk_owners=OWNERS)
    assert run(registry, world, "QueryCalendar", **query).error == "User bob has no events."


INBOX = [
    {
        "username": "alice",
        "email_id": f"m{i}",
        "sender": s,
        "receivers": ["alice@mail.com"],
        "subject": subj,
        "body": body,
        "date": date,
    }
    for i, (s, subj, body, date) in enumerate(
        [
            ("boss@x.com", "Project plan", "Draft attached", "2023-09-01 09:00:00"),
            ("mom@x.com", "Dinner", "Sunday dinner plan?", "2023-09-05 18:00:00"),
            ("boss@x.com", "Re: plan", "Looks good", "2023-09-10 10:00:00"),
            ("boss@x.com", "Future", "Not delivered yet", "2023-09-20 10:00:00"),
        ]
    )
]


def test_search_inbox_filters_and_orders(make_world: Any, run: Any) -> None:
    registry, world = make_world(tooltalk_inbox=INBOX, tooltalk_owners=OWNERS)
    found = run(registry, world, "SearchInbox", query="plan").result["emails"]
    assert [e["email_id"] for e in found] == ["m2", "m1", "m0"]
    found = run(registry, world, "SearchInbox", query="dinner plan", match_type="all")
    assert [e["email_id"] for e in found.result["emails"]] == ["m1"]
    found = run(registry, world, "SearchInbox", sender="boss@x.com", end_date="2023-09-05 00:00:00")
    assert [e["email_id"] for e in found.result["emails"]] == ["m0"]
    assert run(registry, world, "SearchInbox").error == (
        "At least one of query, sender, start_date, end_date must be provided."
    )
    assert run(registry, world, "SearchInbox", query="x", match_type="some").error == (
        'match_type must be either "any" or "all".'
    )


def test_send_email_validates_and_keeps_a_copy(make_world: Any, run: Any) -> None:
    registry, world = make_world()
    out = run(registry, world, "SendEmail", to=["bob@x.com", "bad"], subject="s", body="b")
    assert out.error == "bad is not a valid email address."
    out = run(registry, world, "SendEmail", to=["bob@x.com"], subject="Hi", body="Hello")
    assert out.result == {"email_id": seeded(2, 4, 8)}
    assert world.find_one("tooltalk_sent_emails", {"email_id": seeded(2, 4, 8)})["to"] == [
        "bob@x.com"
    ]


MESSAGES = [
    {
        "username": "alice",
        "message_id": "t1",
        "timestamp": "2023-09-10 08:00:00",
        "sender": "bob",
        "message": "Lunch at noon?",
    },
    {
        "username": "alice",
        "message_id": "t2",
        "timestamp": "2023-09-11 09:00:00",
        "sender": "carol",
        "message": "Running late for lunch",
    },
]


def test_messages_search_and_send(make_world: Any, run: Any) -> None:
    registry, world = make_world(tooltalk_messages=MESSAGES, tooltalk_owners=OWNERS)
    found = run(registry, world, "SearchMessages", query="lunch").result["messages"]
    assert [m["message_id"] for m in found] == ["t2", "t1"]
    assert (
        run(registry, world, "SearchMessages", sender="bob").result["messages"][0]["message_id"]
        == "t1"
    )
    assert run(registry, world, "SendMessage", receiver="bob", message="").error == (
        "Message cannot be empty."
    )
    out = run(registry, world, "SendMessage", receiver="bob", message="See you")
    assert out.result == {"message_id": seeded(8, 8)}


REMINDERS = [
    {
        "username": "alice",
        "reminder_id": "r1",
        "task": "Call mom",
        "due_date": None,
        "status": "pending",
    },
    {
        "username": "alice",
        "reminder_id": "r2",
        "task": "Pay rent",
        "due_date": None,
        "status": "complete",
    },
]
REMINDER_OWNERS = [{"database": "Reminder", "username": "alice"}]


def test_reminders_lifecycle(make_world: Any, run: Any) -> None:
    registry, world = make_world(tooltalk_reminders=REMINDERS, tooltalk_owners=REMINDER_OWNERS)
    assert run(registry, world, "AddReminder", task="Buy milk", due_date="tomorrow").error == (
        "Invalid due_date: tomorrow"
    )
    out = run(registry, world, "AddReminder", task="Buy milk", due_date="2023-09-12 09:00:00")
    assert out.result == {"reminder_id": seeded(2, 4)}
    assert run(registry, world, "CompleteReminder", reminder_id="r2").error == (
        "Reminder r2 already completed"
    )
    assert run(registry, world, "CompleteReminder", reminder_id="r1").ok
    assert run(registry, world, "DeleteReminder", reminder_id="r9").error == (
        "Reminder r9 not found in database"
    )
    assert run(registry, world, "DeleteReminder", reminder_id="r2").ok
    listed = run(registry, world, "GetReminders").result["reminders"]
    assert [(r["reminder_id"], r["status"]) for r in listed] == [
        ("r1", "complete"),
        (seeded(2, 4), "pending"),
    ]


def test_reminders_of_user_without_list(make_world: Any, run: Any) -> None:
    registry, world = make_world(logged_in="bob", tooltalk_reminders=REMINDERS)
    assert run(registry, world, "GetReminders").result == {"reminders": []}
    assert run(registry, world, "DeleteReminder", reminder_id="r1").error == (
        "User bob has no reminders."
    )
    assert run(registry, world, "AddReminder", task="x").ok
    assert world.find_one("tooltalk_owners", {"database": "Reminder", "username": "bob"})


WEATHER = [
    {
        "location": "london",
        "date": f"2023-09-{d:02d}",
        "high": 70 + d,
        "low": 50 + d,
        "conditions": "Sunny",
    }
    for d in range(10, 15)
]
HISTORIC = [
    {
        "location": "london",
        "month": "september",
        "min_temp": 50,
        "max_temp": 66,
        "record_min_temp": 40,
        "record_max_temp": 89,
        "avg_rainfall": 2.13,
        "snow_days": 0,
    }
]


def test_weather_tools(make_world: Any, run: Any) -> None:
    registry, world = make_world(
        logged_in=None, tooltalk_weather=WEATHER, tooltalk_historic_weather=HISTORIC
    )
    assert run(registry, world, "CurrentWeather", location=" London ").result == {
        "weather": {"date": "2023-09-11", "high": 81, "low": 61, "conditions": "Sunny"}
    }
    forecast = run(registry, world, "ForecastWeather", location="london").result["forecast"]
    assert [day["date"] for day in forecast] == ["2023-09-12", "2023-09-13", "2023-09-14"]
    assert run(registry, world, "CurrentWeather", location="Paris").error == (
        "Location paris not found in database"
    )
    historic = run(registry, world, "HistoricWeather", location="London", month="September")
    assert historic.result["weather"]["avg_rainfall"] == 2.13
    assert run(registry, world, "HistoricWeather", location="London", month="May").error == (
        "Historic weather data for london missing for month may"
    )
