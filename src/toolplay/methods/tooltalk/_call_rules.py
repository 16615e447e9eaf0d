"""ToolTalk's per-tool rules for "this predicted call does what the ground-truth call did".

Default rule: the outcome (result and exception) is equal and every argument the ground truth
gives is present and equal in the prediction (extra predicted arguments are ignored). The
exceptions to it, from the reference evaluator:

- AddAlarm: arguments and exception only (the new id does not matter);
- FindAlarms, QueryCalendar, SearchInbox, SearchMessages, GetReminders: a read is judged by its
  result: the ground truth's result ids must be among the predicted ones;
- CreateEvent, ModifyEvent: name, description and location by text similarity >= 0.9, the rest
  exactly, the new id ignored (ModifyEvent still compares its status);
- SendEmail: the same set of recipients, subject similarity >= 0.9, body >= 0.8;
- SendMessage: the same receiver (the reference compared the prediction's receiver with itself)
  and message similarity >= 0.8;
- AddReminder: task similarity >= 0.9, the due date's calendar day only (a missing, null or
  unreadable predicted due date is simply no match; the reference crashed on null).

Tools acting for the logged-in user must also have run under the same session token (the token
in force when the call ran, which the environment supplies; see `session_tokens`). When both
calls of a read failed with the same exception they match (the reference crashed there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from toolplay.domains.tooltalk import AUTH_TOOLS, DATE_TIME, LOGIN_TOOLS, LOGOUT_TOOLS

Similarity = Callable[[str, str], float]
"""Similarity of a predicted and a ground-truth text (precomputed by the scorer)."""


@dataclass(frozen=True)
class Call:
    """A call as the comparison sees it: what was asked and what came back.

    `arguments` is None when the assistant's argument text was not a JSON object.
    `session_token` is the token in force when the call ran.
    """

    name: str
    arguments: Mapping[str, Any] | None
    result: Any
    error: str | None
    session_token: str | None = None


TEXT_THRESHOLDS: dict[str, dict[str, float]] = {
    "CreateEvent": {"name": 0.9, "description": 0.9, "location": 0.9},
    "ModifyEvent": {"new_name": 0.9, "new_description": 0.9, "new_location": 0.9},
    "SendEmail": {"subject": 0.9, "body": 0.8},
    "SendMessage": {"message": 0.8},
    "AddReminder": {"task": 0.9},
}
"""Free-text arguments compared by similarity, with the threshold a match needs."""

RESULT_IDS: dict[str, tuple[str, str]] = {
    "FindAlarms": ("alarms", "alarm_id"),
    "QueryCalendar": ("events", "event_id"),
    "SearchInbox": ("emails", "email_id"),
    "SearchMessages": ("messages", "message_id"),
    "GetReminders": ("reminders", "reminder_id"),
}
"""Reads judged by their results: result list field and id key."""


def next_session_token(token: str | None, name: str, result: Any, error: str | None) -> str | None:
    """The client's session token after a call (login and registration open, logout closes)."""
    if error is not None:
        return token
    if name in LOGIN_TOOLS:
        value = result.get("session_token") if isinstance(result, dict) else None
        return value if isinstance(value, str) else token
    if name in LOGOUT_TOOLS:
        return None
    return token


def text_pairs(prediction: Call, truth: Call) -> list[tuple[str, str]]:
    """The (predicted, ground-truth) text pairs comparing these two calls may look up.

    Found by running the comparison with every text judged similar: the rules check all other
    fields first, so a pair is listed only when its similarity can decide the match.
    """
    asked: list[tuple[str, str]] = []

    def optimistic(a: str, b: str) -> float:
        if a != b:
            asked.append((a, b))
        return 1.0

    calls_match(prediction, truth, optimistic)
    return asked


def calls_match(prediction: Call, truth: Call, similarity: Similarity) -> bool:
    """Whether `prediction` counts as the ground-truth call `truth` (see module docstring)."""
    if prediction.name != truth.name or prediction.arguments is None:
        return False
    if prediction.error != truth.error:
        return False
    if truth.name in AUTH_TOOLS and prediction.session_token != truth.session_token:
        return False
    rule = _RULES.get(truth.name, _default)
    return rule(prediction, truth, similarity)


def _arguments(prediction: Call, truth: Call) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    return prediction.arguments or {}, truth.arguments or {}


def _same_arguments(prediction: Call, truth: Call, similarity: Similarity) -> bool:
    """Every ground-truth argument present and equal (free text: similar enough)."""
    predicted, expected = _arguments(prediction, truth)
    thresholds = TEXT_THRESHOLDS.get(truth.name, {})
    if any(key not in predicted for key in expected):
        return False
    exact = [key for key in expected if key not in thresholds]
    if any(predicted[key] != expected[key] for key in exact):
        return False
    texts = {key: thresholds[key] for key in expected if key in thresholds}
    return _texts(predicted, expected, texts, similarity)


def _default(prediction: Call, truth: Call, similarity: Similarity) -> bool:
    return prediction.result == truth.result and _same_arguments(prediction, truth, similarity)


def _arguments_only(prediction: Call, truth: Call, similarity: Similarity) -> bool:
    return _same_arguments(prediction, truth, similarity)


def _event(prediction: Call, truth: Call, similarity: Similarity) -> bool:
    predicted, expected = _arguments(prediction, truth)
    if any(predicted.get(key) is None for key in expected):
        return False
    if truth.name == "ModifyEvent" and prediction.result != truth.result:
        return False
    return _same_arguments(prediction, truth, similarity)


def _result_ids(prediction: Call, truth: Call, similarity: Similarity) -> bool:
    if truth.error is not None:
        return True
    if truth.name == "GetReminders" and dict(prediction.arguments or {}) != dict(
        truth.arguments or {}
    ):
        return False
    field, key = RESULT_IDS[truth.name]
    expected, found = _ids(truth.result, field, key), _ids(prediction.result, field, key)
    return expected is not None and found is not None and expected <= found


def _ids(result: Any, field: str, key: str) -> set[Any] | None:
    items = result.get(field) if isinstance(result, dict) else None
    if not isinstance(items, list):
        return None
    return {item.get(key) for item in items if isinstance(item, dict)}


def _send_email(prediction: Call, truth: Call, similarity: Similarity) -> bool:
    predicted, expected = _arguments(prediction, truth)
    to, expected_to = predicted.get("to"), expected.get("to")
    if not isinstance(to, list) or not isinstance(expected_to, list):
        return False
    if not all(isinstance(a, str) for a in to) or set(to) != set(expected_to):
        return False
    return _texts(predicted, expected, TEXT_THRESHOLDS["SendEmail"], similarity)


def _send_message(prediction: Call, truth: Call, similarity: Similarity) -> bool:
    predicted, expected = _arguments(prediction, truth)
    if predicted.get("receiver") != expected.get("receiver"):
        return False
    return _texts(predicted, expected, TEXT_THRESHOLDS["SendMessage"], similarity)


def _texts(
    predicted: Mapping[str, Any],
    expected: Mapping[str, Any],
    thresholds: Mapping[str, float],
    similarity: Similarity,
) -> bool:
    for key, threshold in thresholds.items():
        guess, value = predicted.get(key), expected.get(key)
        if not isinstance(guess, str) or not isinstance(value, str):
            return False
        if similarity(guess, value) < threshold:
            return False
    return True


def _add_reminder(prediction: Call, truth: Call, similarity: Similarity) -> bool:
    predicted, expected = _arguments(prediction, truth)
    if any(key not in predicted for key in expected):
        return False
    for key, value in expected.items():
        guess = predicted[key]
        if key == "due_date":
            if _day(guess) is None or _day(guess) != _day(value):
                return False
        elif key != "task" and guess != value:
            return False
    texts = {"task": TEXT_THRESHOLDS["AddReminder"]["task"]} if "task" in expected else {}
    return _texts(predicted, expected, texts, similarity)


def _day(value: Any) -> Any:
    if not isinstance(value, str):
        return None
    try:
        return datetime.strptime(value, DATE_TIME).date()  # noqa: DTZ007 - only the day is used
    except ValueError:
        return None


_RULES: dict[str, Callable[[Call, Call, Similarity], bool]] = {
    "AddAlarm": _arguments_only,
    "CreateEvent": _event,
    "ModifyEvent": _event,
    "SendEmail": _send_email,
    "SendMessage": _send_message,
    "AddReminder": _add_reminder,
    **{name: _result_ids for name in RESULT_IDS},
}
