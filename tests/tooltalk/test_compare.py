"""ToolTalk's per-tool comparison rules, including the reference's defects fixed."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toolplay.methods.tooltalk import Call, calls_match
from toolplay.methods.tooltalk._call_rules import next_session_token, text_pairs
from toolplay.scoring import EmbeddingSimilarity

TOKEN = "tok-1"


def table(**pairs: float) -> Any:
    """A similarity that knows only the given (predicted|truth) pairs."""
    values = {tuple(k.split("|")): v for k, v in pairs.items()}

    def similarity(a: str, b: str) -> float:
        return 1.0 if a == b else values[(a, b)]

    return similarity


def exact(a: str, b: str) -> float:
    return 1.0 if a == b else 0.0


def c(
    name: str,
    arguments: dict[str, Any] | None,
    result: Any = None,
    error: str | None = None,
    token: str | None = TOKEN,
) -> Call:
    return Call(name, arguments, result, error, token)


def test_default_rule_needs_equal_outcome_and_ground_truth_arguments() -> None:
    truth = c("QueryUser", {"username": "bob"}, {"users": [{"username": "bob"}]})
    assert calls_match(
        c("QueryUser", {"username": "bob", "email": "x"}, truth.result), truth, exact
    )
    assert not calls_match(c("QueryUser", {"email": "x"}, truth.result), truth, exact)
    assert not calls_match(c("QueryUser", {"username": "bob"}, {"users": []}), truth, exact)
    assert not calls_match(c("QueryUser", {"username": "bob"}, None, "boom"), truth, exact)
    assert not calls_match(c("DeleteAlarm", {"username": "bob"}, truth.result), truth, exact)
    assert not calls_match(c("QueryUser", None, truth.result), truth, exact)


def test_session_token_must_match_for_tools_acting_for_the_user() -> None:
    truth = c("DeleteAlarm", {"alarm_id": "a"}, {"status": "success"})
    other = c("DeleteAlarm", {"alarm_id": "a"}, {"status": "success"}, token="tok-2")
    assert not calls_match(other, truth, exact)
    weather = c("CurrentWeather", {"location": "Paris"}, {"weather": {}}, token=None)
    assert calls_match(c("CurrentWeather", {"location": "Paris"}, {"weather": {}}), weather, exact)


def test_add_alarm_ignores_the_new_id() -> None:
    truth = c("AddAlarm", {"time": "08:00:00"}, {"alarm_id": "5bff-dd80"})
    assert calls_match(c("AddAlarm", {"time": "08:00:00"}, {"alarm_id": "ffff-0000"}), truth, exact)
    assert not calls_match(c("AddAlarm", {"time": "08:30:00"}, {"alarm_id": "x"}), truth, exact)


def test_reads_are_judged_by_result_ids() -> None:
    truth = c("FindAlarms", {}, {"alarms": [{"alarm_id": "a"}]})
    more = c(
        "FindAlarms",
        {"start_range": "07:00:00"},
        {"alarms": [{"alarm_id": "b"}, {"alarm_id": "a"}]},
    )
    assert calls_match(more, truth, exact)
    assert not calls_match(c("FindAlarms", {}, {"alarms": [{"alarm_id": "b"}]}), truth, exact)
    empty = c("QueryCalendar", {"start_time": "x", "end_time": "y"}, {"events": []})
    anything = c(
        "QueryCalendar", {"start_time": "a", "end_time": "b"}, {"events": [{"event_id": "e"}]}
    )
    assert calls_match(anything, empty, exact)
    failed = c(
        "SearchInbox",
        {},
        None,
        "At least one of query, sender, start_date, end_date must be provided.",
    )
    assert calls_match(c("SearchInbox", {"match_type": "all"}, None, failed.error), failed, exact)
    reminders = c("GetReminders", {}, {"reminders": [{"reminder_id": "r"}]})
    assert calls_match(c("GetReminders", {}, reminders.result), reminders, exact)
    assert not calls_match(c("GetReminders", {"x": 1}, reminders.result), reminders, exact)


def test_create_event_compares_free_text_by_similarity() -> None:
    truth = c(
        "CreateEvent",
        {"name": "Walk", "event_type": "event", "start_time": "s", "end_time": "e"},
        {"event_id": "1"},
    )
    close = c(
        "CreateEvent",
        {"name": "A walk", "event_type": "event", "start_time": "s", "end_time": "e"},
        {"event_id": "2"},
    )
    assert calls_match(close, truth, table(**{"A walk|Walk": 0.95}))
    assert not calls_match(close, truth, table(**{"A walk|Walk": 0.85}))
    wrong_time = c(
        "CreateEvent", {"name": "Walk", "event_type": "event", "start_time": "t", "end_time": "e"}
    )
    assert not calls_match(wrong_time, truth, exact)
    with_none = c(
        "CreateEvent", {"name": None, "event_type": "event", "start_time": "s", "end_time": "e"}
    )
    assert not calls_match(with_none, truth, exact)


def test_modify_event_compares_status_too() -> None:
    truth = c("ModifyEvent", {"event_id": "e", "new_name": "Gym"}, {"status": "success"})
    assert calls_match(
        c("ModifyEvent", {"event_id": "e", "new_name": "Gym"}, {"status": "success"}), truth, exact
    )
    assert not calls_match(
        c("ModifyEvent", {"event_id": "e", "new_name": "Gym"}, None, "x"), truth, exact
    )


def test_send_email_recipients_as_a_set_and_texts_by_similarity() -> None:
    truth = c(
        "SendEmail",
        {"to": ["a@x.com", "b@x.com"], "subject": "Hi", "body": "Body"},
        {"email_id": "1"},
    )
    swapped = c(
        "SendEmail",
        {"to": ["b@x.com", "a@x.com"], "subject": "Hi", "body": "Text"},
        {"email_id": "2"},
    )
    assert calls_match(swapped, truth, table(**{"Text|Body": 0.81}))
    assert not calls_match(swapped, truth, table(**{"Text|Body": 0.79}))
    fewer = c("SendEmail", {"to": ["a@x.com"], "subject": "Hi", "body": "Body"})
    assert not calls_match(fewer, truth, exact)
    missing = c("SendEmail", {"subject": "Hi", "body": "Body"})
    assert not calls_match(missing, truth, exact)


def test_send_message_checks_the_receiver() -> None:
    """The reference compared the prediction's receiver with itself: any receiver matched."""
    truth = c("SendMessage", {"receiver": "bob", "message": "On my way"}, {"message_id": "1"})
    assert calls_match(c("SendMessage", {"receiver": "bob", "message": "On my way"}), truth, exact)
    assert not calls_match(
        c("SendMessage", {"receiver": "eve", "message": "On my way"}), truth, exact
    )


def test_add_reminder_due_day_only_and_null_due_date() -> None:
    truth = c(
        "AddReminder", {"task": "Pay rent", "due_date": "2023-10-01 00:00:00"}, {"reminder_id": "x"}
    )
    later = c("AddReminder", {"task": "Pay rent", "due_date": "2023-10-01 09:30:00"})
    assert calls_match(later, truth, exact)
    other_day = c("AddReminder", {"task": "Pay rent", "due_date": "2023-10-02 00:00:00"})
    assert not calls_match(other_day, truth, exact)
    # the reference crashed on a null due date; here it is simply no match
    assert not calls_match(c("AddReminder", {"task": "Pay rent", "due_date": None}), truth, exact)
    assert not calls_match(c("AddReminder", {"task": "Pay rent"}), truth, exact)


def test_text_pairs_are_asked_only_when_they_can_decide() -> None:
    truth = c("SendMessage", {"receiver": "bob", "message": "Hi Bob"})
    assert text_pairs(c("SendMessage", {"receiver": "eve", "message": "Hello"}), truth) == []
    assert text_pairs(c("SendMessage", {"receiver": "bob", "message": "Hello"}), truth) == [
        ("Hello", "Hi Bob")
    ]


def test_session_token_follows_login_and_logout() -> None:
    assert next_session_token(None, "UserLogin", {"session_token": "t"}, None) == "t"
    assert next_session_token("t", "UserLogin", None, "The password is incorrect.") == "t"
    assert next_session_token("t", "LogoutUser", {"status": "success"}, None) is None
    assert next_session_token("t", "AddAlarm", {"alarm_id": "a"}, None) == "t"


ARGUMENTS = st.dictionaries(
    st.sampled_from(["time", "task", "receiver", "message", "to", "due_date"]),
    st.text(max_size=8),
    max_size=4,
)


@given(
    name=st.sampled_from(["AddAlarm", "SendMessage", "QueryUser", "AddReminder", "DeleteEvent"]),
    arguments=ARGUMENTS,
    result=st.one_of(st.none(), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2)),
    error=st.one_of(st.none(), st.text(max_size=8)),
)
def test_a_call_matches_itself(
    name: str, arguments: dict[str, Any], result: Any, error: str | None
) -> None:
    truth = c(name, arguments, result, error)
    assert calls_match(truth, truth, exact) == _well_formed(name, arguments)


def _well_formed(name: str, arguments: dict[str, Any]) -> bool:
    if name == "AddReminder" and "due_date" in arguments:
        return False
    if name == "SendMessage":
        return isinstance(arguments.get("message"), str)
    return True


def test_real_model_separates_paraphrase_from_other_text(similarity: EmbeddingSimilarity) -> None:
    truth = c("SendMessage", {"receiver": "bob", "message": "I'm running 10 minutes late"})
    paraphrase = c("SendMessage", {"receiver": "bob", "message": "I am running ten minutes late"})
    unrelated = c("SendMessage", {"receiver": "bob", "message": "Happy birthday, enjoy the cake"})
    lookup = lambda a, b: similarity([a], [b])[0]  # noqa: E731
    assert calls_match(paraphrase, truth, lookup)
    assert not calls_match(unrelated, truth, lookup)
