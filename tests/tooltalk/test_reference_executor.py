"""ToolTalk's reference executor: the order of its checks, its texts, what it shows of a call.

Each expectation is what microsoft/ToolTalk's `ToolExecutor.execute_tool` gives for the same call
(the texts of Python's own errors as CPython 3.11 words them; binding errors pinned to 3.10+).
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from typing import Any

import pytest

from support import registry_for
from toolplay.domains.tooltalk import AUTH_TOOLS, DOMAIN_NAMES
from toolplay.messages import ToolCall
from toolplay.methods.tooltalk import ReferenceExecutor
from toolplay.methods.tooltalk._executor import binding_error, read_arguments
from toolplay.methods.tooltalk._texts import reference_texts
from toolplay.scenarios import ReferenceCall
from toolplay.tools import Registry, ToolOutcome
from toolplay.world import World

OWNERS = [{"database": d, "username": "alice"} for d in ("Alarm", "Calendar", "Reminder")]
FILE_EVENT = {
    "username": "alice",
    "event_id": "e1",
    "name": "Standup",
    "event_type": "meeting",
    "start_time": "2023-09-12 10:00:00",
    "end_time": "2023-09-12 10:30:00",
    "location": None,
    "description": None,
    "attendees": ["alice", "bob"],
}


def executor(registry: Registry) -> ReferenceExecutor:
    return ReferenceExecutor(registry, reference_texts())


def execute(
    registry: Registry, world: World, name: str, arguments: str | dict[str, Any]
) -> ToolOutcome:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    world.index += 1
    return executor(registry).execute(
        world, ToolCall(id=f"c{world.index}", name=name, arguments=text)
    )


TOKEN = "aaaaaaaa-bbbb-cccc"
CLOCK = datetime(2023, 9, 11, 13, 0, tzinfo=UTC)


def account(username: str, token: str | None) -> dict[str, Any]:
    return {
        "username": username,
        "password": f"{username}-pw",
        "session_token": token,
        "email": f"{username}@mail.com",
        "phone": "123-456-7890",
        "name": username.title(),
        "verification_code": None,
    }


def world(logged_in: str | None = "alice", **tables: Any) -> tuple[Registry, World]:
    """Users alice and bob, `logged_in` holding the session; alice has Alarm, Calendar and
    Reminder entries unless `tooltalk_owners` says otherwise."""
    registry = registry_for(DOMAIN_NAMES)
    accounts = [account(u, TOKEN if logged_in == u else None) for u in ("alice", "bob")]
    tables.setdefault("tooltalk_owners", OWNERS)
    session = {"session_token": TOKEN if logged_in else None, "username": logged_in}
    rows = {"tooltalk_accounts": accounts, **tables}
    return registry, registry.new_world(rows, clock=CLOCK, session=session)


@pytest.mark.parametrize(
    "text", ['{"time": "08:00:00"', "", "{'time': '08:00:00'}", "null", "[1, 2]", '"x"']
)
def test_arguments_it_cannot_read_are_not_run_and_shown_as_null(text: str) -> None:
    registry, w = world()
    outcome = execute(registry, w, "AddAlarm", text)
    assert (outcome.error, outcome.executed_arguments) == ("Failed to parse API call", "null")
    assert w.find("tooltalk_alarms", {}) == []


def test_python_json_reading_accepts_what_python_accepts() -> None:
    assert read_arguments(' {"a": NaN, "a": 2, "b": 1e3} ') == {"a": 2, "b": 1000.0}
    assert read_arguments("[1]") is None


def test_an_unknown_api_is_named_before_anything_else() -> None:
    registry, w = world(logged_in=None)
    outcome = execute(registry, w, "LookupEverything", {"query": 1})
    assert outcome.error == "API LookupEverything not found"
    assert outcome.executed_arguments == '{"query": 1}'


def test_nobody_logged_in_is_reported_before_the_arguments_are_looked_at() -> None:
    registry, w = world(logged_in=None)
    outcome = execute(registry, w, "CreateEvent", {"bogus": 1})
    assert outcome.error == "User is not logged in"
    assert outcome.executed_arguments == '{"bogus": 1}'  # no token written


def test_the_session_token_is_written_in_last_or_in_its_place() -> None:
    registry, w = world()
    added = execute(registry, w, "AddAlarm", '{"time":"08:00:00"}')
    assert added.executed_arguments == f'{{"time": "08:00:00", "session_token": "{TOKEN}"}}'
    replaced = execute(registry, w, "AddAlarm", {"session_token": "copied", "time": "09:00:00"})
    assert replaced.error is None
    assert replaced.executed_arguments == f'{{"session_token": "{TOKEN}", "time": "09:00:00"}}'


def test_a_second_login_names_the_user_logged_in() -> None:
    registry, w = world()
    outcome = execute(registry, w, "UserLogin", {"username": "bob", "password": "bob-pw"})
    assert outcome.error == "Only one user can be logged in at a time. Current user is alice."


@pytest.mark.parametrize(
    ("name", "arguments", "error"),
    [
        (
            "AddAlarm",
            {"when": 1, "time": "x"},
            "AddAlarm.call() got an unexpected keyword argument 'when'",
        ),
        ("AddAlarm", {}, "AddAlarm.call() missing 1 required positional argument: 'time'"),
        (
            "QueryCalendar",
            {},
            "QueryCalendar.call() missing 2 required positional arguments: 'start_time' and "
            "'end_time'",
        ),
        (
            "CreateEvent",
            {"name": "Lunch"},
            "CreateEvent.call() missing 3 required positional arguments: 'event_type', "
            "'start_time', and 'end_time'",
        ),
        (
            "CurrentWeather",
            {"location": "x", "session_token": "t"},
            "CurrentWeather.call() got an unexpected keyword argument 'session_token'",
        ),
    ],
)
def test_arguments_are_bound_as_python_binds_keywords(
    name: str, arguments: dict[str, Any], error: str
) -> None:
    registry, w = world()
    assert execute(registry, w, name, arguments).error == error


def test_every_tool_takes_the_references_parameters() -> None:
    registry, _ = world()
    texts = reference_texts()
    for name, facts in texts.apis.items():
        spec = registry[name]
        ours = [p for p in spec.arguments.model_fields]
        theirs = [p for p, _ in facts.signature if p != "session_token"]
        assert ours == theirs, name
        assert facts.requires_auth == (name in AUTH_TOOLS), name
        assert facts.is_action == (spec.kind == "action"), name
        assert binding_error(facts, {p: 1 for p, _ in facts.signature}) is None


INBOX = {
    "username": "alice",
    "email_id": "m1",
    "date": "2023-09-01 10:00:00",
    "sender": "b@c.d",
    "receivers": ["a@b.c"],
    "subject": "s",
    "body": "b",
}
HISTORIC = {
    "location": "boston",
    "month": "september",
    "min_temp": 1,
    "max_temp": 2,
    "record_min_temp": 0,
    "record_max_temp": 3,
    "avg_rainfall": 1.0,
    "snow_days": 0,
}
PYTHON_ERRORS = [
    ("CurrentWeather", {"location": 12}, "'int' object has no attribute 'lower'"),
    ("AddAlarm", {"time": 18.5}, "strptime() argument 1 must be str, not float"),
    ("AddAlarm", {"time": "7pm"}, "time data '7pm' does not match format '%H:%M:%S'"),
    ("FindAlarms", {"start_range": "10:00"}, "time data '10:00' does not match format '%H:%M:%S'"),
    (
        "SendEmail",
        {"to": "ab@cd.com", "subject": "s", "body": "b"},
        "a is not a valid email address.",
    ),
    (
        "SendEmail",
        {"to": [3], "subject": "s", "body": "b"},
        "expected string or bytes-like object, got 'int'",
    ),
    ("SendEmail", {"to": 3, "subject": "s", "body": "b"}, "'int' object is not iterable"),
    ("DeleteAlarm", {"alarm_id": ["x"]}, "unhashable type: 'list'"),
    ("QueryUser", {"username": {"a": 1}}, "unhashable type: 'dict'"),
    ("HistoricWeather", {"location": "x", "month": 9}, "Location x not found in database"),
    (
        "HistoricWeather",
        {"location": "Boston", "month": 9},
        "'int' object has no attribute 'lower'",
    ),
    ("SearchInbox", {"query": 5}, "'int' object has no attribute 'lower'"),
    ("AddReminder", {"task": "t", "due_date": "tomorrow"}, "Invalid due_date: tomorrow"),
    ("AddReminder", {"task": "t", "due_date": 5}, "strptime() argument 1 must be str, not int"),
    (
        "CreateEvent",
        {
            "name": "n",
            "event_type": "meeting",
            "start_time": "2023-09-20 10:00:00",
            "end_time": "2023-09-20 11:00:00",
            "attendees": "bob",
        },
        'can only concatenate str (not "list") to str',
    ),
    (
        "CreateEvent",
        {
            "name": "n",
            "event_type": "meeting",
            "start_time": "2023-09-20 10:00:00",
            "end_time": "2023-09-20 11:00:00",
            "attendees": 7,
        },
        "argument of type 'int' is not iterable",
    ),
]


@pytest.mark.parametrize(("name", "arguments", "error"), PYTHON_ERRORS)
def test_odd_values_fail_with_pythons_own_text(
    name: str, arguments: dict[str, Any], error: str
) -> None:
    registry, w = world(
        "alice",
        tooltalk_inbox=[INBOX],
        tooltalk_historic_weather=[HISTORIC],
        tooltalk_owners=[*OWNERS, {"database": "Email", "username": "alice"}],
    )
    assert execute(registry, w, name, arguments).error == error


def test_a_call_that_refuses_late_keeps_what_it_wrote_before() -> None:
    registry, w = world()
    outcome = execute(
        registry,
        w,
        "UpdateAccountInformation",
        {"password": "alice-pw", "new_email": "new@mail.com", "new_phone_number": "12"},
    )
    assert outcome.error == "The phone number is invalid."
    assert (
        execute(registry, w, "GetAccountInformation", {}).result["user"]["email"] == "new@mail.com"
    )
    registry, w = world(tooltalk_events=[FILE_EVENT])
    outcome = execute(
        registry,
        w,
        "ModifyEvent",
        {"event_id": "e1", "new_name": "Renamed", "new_start_time": "2023-09-20 10:00:00"},
    )
    assert outcome.error == "new_end_time must be provided if new_start_time is provided."
    assert w.find("tooltalk_events", {})[0]["name"] == "Renamed"


def test_toolplays_registry_still_rolls_the_same_call_back() -> None:
    registry, w = world()
    arguments = {"password": "alice-pw", "new_email": "new@mail.com", "new_phone_number": "12"}
    call = ToolCall.from_args("c1", "UpdateAccountInformation", arguments)
    assert registry.execute(w, call).error == "The phone number is invalid."
    shown = registry.execute(w, ToolCall.from_args("c2", "GetAccountInformation", {}))
    assert shown.result["user"]["email"] == "alice@mail.com"


def test_a_failed_add_reminder_leaves_the_users_entry_as_the_reference_does() -> None:
    registry, w = world(logged_in="bob")
    assert execute(registry, w, "CompleteReminder", {"reminder_id": "r1"}).error == "'bob'"
    assert (
        execute(registry, w, "AddReminder", {"task": "t", "due_date": "soon"}).error
        == "Invalid due_date: soon"
    )
    assert execute(registry, w, "CompleteReminder", {"reminder_id": "r1"}).error == (
        "Reminder r1 not found in database"
    )


def test_a_missing_weather_day_shows_the_references_key_error() -> None:
    weather = [{"location": "boston", "date": "2023-09-12", "high": 1, "low": 0, "conditions": "c"}]
    registry, w = world(tooltalk_weather=weather)
    assert (
        execute(registry, w, "CurrentWeather", {"location": " Boston "}).error
        == "datetime.date(2023, 9, 11)"
    )
    assert (
        execute(registry, w, "ForecastWeather", {"location": "boston"}).error
        == "datetime.date(2023, 9, 13)"
    )


def test_ids_are_drawn_only_by_calls_that_succeed() -> None:
    registry, w = world()
    meeting = {
        "name": "n",
        "event_type": "meeting",
        "start_time": "2023-09-20 10:00:00",
        "end_time": "2023-09-20 11:00:00",
    }
    assert execute(registry, w, "CreateEvent", {**meeting, "attendees": "bob"}).error is not None
    assert execute(registry, w, "CreateEvent", {**meeting, "attendees": ["bob"]}).result == {
        "event_id": "e149636f-d9ca"
    }


def test_records_keep_the_references_key_order() -> None:
    registry, w = world(tooltalk_events=[FILE_EVENT])
    made = {
        "name": "New",
        "event_type": "event",
        "start_time": "2023-09-12 11:00:00",
        "end_time": "2023-09-12 12:00:00",
    }
    assert execute(registry, w, "CreateEvent", made).error is None
    found = execute(
        registry,
        w,
        "QueryCalendar",
        {"start_time": "2023-09-12 00:00:00", "end_time": "2023-09-13 00:00:00"},
    )
    orders = [list(event) for event in found.result["events"]]
    assert orders == [
        [
            "event_id",
            "name",
            "event_type",
            "start_time",
            "end_time",
            "location",
            "description",
            "attendees",
        ],
        [
            "event_id",
            "name",
            "event_type",
            "description",
            "start_time",
            "end_time",
            "location",
            "attendees",
        ],
    ]


def test_a_replayed_call_shows_its_recorded_arguments_with_the_token_in_force() -> None:
    registry, w = world()
    recorded = ReferenceCall(
        name="AddAlarm",
        arguments={"time": "08:00:00"},
        recorded_arguments={"session_token": "recorded-token", "time": "08:00:00"},
    )
    outcome = executor(registry).replay(w, recorded)
    assert outcome.executed_arguments == f'{{"session_token": "{TOKEN}", "time": "08:00:00"}}'
    assert recorded.recorded_arguments == {"session_token": "recorded-token", "time": "08:00:00"}
    registry, w = world(logged_in=None)
    outcome = executor(registry).replay(w, recorded)
    assert outcome.error == "User is not logged in"
    assert outcome.executed_arguments == '{"session_token": "recorded-token", "time": "08:00:00"}'


@pytest.mark.skipif(
    sys.version_info >= (3, 13), reason="3.13 adds 'Did you mean' hints to some texts"
)
def test_the_pinned_python_texts_are_this_interpreters() -> None:
    """The texts toolplay writes by rule are those the running CPython would raise."""

    def call(self: object, session_token: str, time: str) -> None: ...

    call.__qualname__ = "AddAlarm.call"
    with pytest.raises(TypeError) as unexpected:
        call(None, session_token="t", time="x", when=1)  # type: ignore[call-arg]
    facts = reference_texts().apis["AddAlarm"]
    assert str(unexpected.value) == binding_error(
        facts, {"session_token": "t", "time": "x", "when": 1}
    )
    with pytest.raises(TypeError) as missing:
        call(None, session_token="t")  # type: ignore[call-arg]
    assert str(missing.value) == binding_error(facts, {"session_token": "t"})
