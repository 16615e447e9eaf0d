"""Canned answers for capturing requests: how a stand-in model answers each request.

Shared by the capture (`capture.py`, which runs the ToolTalk reference's own evaluation loop with
its model client replaced) and toolplay's parity tests (which play the same conversations through
toolplay): both sides get the same answers, so both walk the same conversation, and their request
bodies can be compared byte for byte. The answers are derived from the conversation file (its
ground-truth calls and texts) and fixed odd values, so nothing of the dataset needs storing.

A policy sees the request (in either wire format) and the conversation, and answers as a model
would: a call (`function_call`) or a text. Stdlib only; runs under the reference's Python too.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any, Callable

Message = dict[str, Any]


def position(request: dict[str, Any]) -> tuple[int, int]:
    """(assistant turn ordinal, answers already given in it), read off a request.

    Every earlier assistant turn left exactly one text message (assistant, no call) in the
    history; this turn's calls follow the last user message.
    """
    messages = request["messages"]

    def is_call(message: Message) -> bool:
        return message["role"] == "assistant" and bool(
            message.get("function_call") or message.get("tool_calls")
        )

    turn = sum(1 for m in messages if m["role"] == "assistant" and not is_call(m))
    last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
    step = sum(1 for m in messages[last_user + 1 :] if is_call(m))
    return turn, step


def call(name: str, arguments: str, content: str | None = None) -> Message:
    """A legacy-format call answer."""
    return {
        "role": "assistant",
        "content": content,
        "function_call": {"name": name, "arguments": arguments},
    }


def text(content: str | None) -> Message:
    """A text answer."""
    return {"role": "assistant", "content": content}


def without_token(parameters: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in parameters.items() if k != "session_token"}


def compact(value: Any) -> str:
    """JSON without spaces, as many models write it (the reference re-serialises it)."""
    return json.dumps(value, separators=(",", ":"))


FAILURES = (
    "unexpected_argument",
    "unknown_api",
    "bad_time_format",
    "not_found",
    "missing_arguments",
    "token_to_public_tool",
    "wrong_password",
)
"""The failing call of `fail`/`fail_gt`, chosen by assistant turn ordinal (k % 7)."""


def failing_call(kind: str, apis: list[dict[str, Any]]) -> Message:
    first = apis[0]["request"] if apis else None
    if kind == "unexpected_argument":
        if first is not None:
            params = without_token(first["parameters"])
            params["bogus_argument"] = "x"
            return call(first["api_name"], json.dumps(params))
        return call("CurrentWeather", json.dumps({"location": "Seattle", "bogus_argument": "x"}))
    if kind == "unknown_api":
        return call("LookupEverything", json.dumps({"query": "anything"}))
    if kind == "bad_time_format":
        return call("AddAlarm", json.dumps({"time": "7pm"}))
    if kind == "not_found":
        return call("DeleteEvent", json.dumps({"event_id": "00000000-0000"}))
    if kind == "missing_arguments":
        return call("CreateEvent", json.dumps({"name": "Lunch"}))
    if kind == "token_to_public_tool":
        return call("CurrentWeather", json.dumps({"location": "Seattle", "session_token": "abc"}))
    if kind == "wrong_password":
        return call("UserLogin", json.dumps({"username": "justinkool", "password": "wrong"}))
    raise ValueError(kind)


MALFORMED = ("truncated_json", "json_null", "python_dict", "empty_string")


def malformed_call(kind: str, apis: list[dict[str, Any]]) -> Message:
    first = (
        apis[0]["request"]
        if apis
        else {"api_name": "CurrentWeather", "parameters": {"location": "Seattle"}}
    )
    params = without_token(first["parameters"])
    if kind == "truncated_json":
        return call(first["api_name"], json.dumps(params)[:-1])
    if kind == "json_null":
        return call(first["api_name"], "null")
    if kind == "python_dict":
        return call(first["api_name"], repr(params or {"detail": "all"}))
    if kind == "empty_string":
        return call(first["api_name"], "")
    raise ValueError(kind)


WEIRD = (
    ("CurrentWeather", {"location": 12}),
    ("AddAlarm", {"time": 18.5}),
    ("SendEmail", {"to": "ab@cd.com", "subject": "Hi", "body": "Hello"}),
    (
        "CreateEvent",
        {
            "name": "Sync",
            "event_type": "meeting",
            "start_time": "2023-09-20 10:00:00",
            "end_time": "2023-09-20 10:30:00",
            "attendees": "mstein",
        },
    ),
    ("ForecastWeather", {"location": "  SEATTLE  "}),
    ("SearchMessages", {"query": "x", "match_type": "some"}),
    ("AddReminder", {"task": "Pay électricité", "due_date": "tomorrow"}),
    ("FindAlarms", {"start_range": "10:00", "end_range": 7}),
    (
        "ModifyEvent",
        {
            "event_id": "5480d946-2381",
            "new_name": "Renamed",
            "new_start_time": "2023-09-20 10:00:00",
        },
    ),
    ("QueryUser", {}),
    ("HistoricWeather", {"location": "Seattle", "month": "Sept"}),
    ("SendMessage", {"receiver": "mstein", "message": ""}),
    (
        "UpdateAccountInformation",
        {"password": "justforkicks123", "new_email": "x@y.z", "new_phone_number": "12"},
    ),
    ("CurrentWeather", {"location": "Seattle", "units": 1.50, "n": 1e3}),
    ("DeleteAlarm", {"alarm_id": ["5bff-dd80"]}),
    ("QueryUser", {"username": {"name": "mstein"}}),
    ("CompleteReminder", {"reminder_id": 7}),
    ("SearchInbox", {"query": 5, "sender": None}),
)
"""Odd argument values (wrong types and formats) whose errors are Python's own texts."""


class Policy:
    """Answers the requests of one conversation; subclasses give each turn's answers."""

    name = "policy"

    def __init__(self, conversation: dict[str, Any]) -> None:
        self.conversation = conversation
        self.assistant_turns = [t for t in conversation["conversation"] if t["role"] == "assistant"]

    def __call__(self, request: dict[str, Any]) -> Message:
        k, step = position(request)
        answers = self.plan(k, self.assistant_turns[k])
        if step >= len(answers):
            raise RuntimeError(f"policy {self.name}: turn {k} asked again after its last answer")
        return answers[step]

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        raise NotImplementedError


def gt_calls(
    turn: dict[str, Any], *, with_token: bool = False, content: str | None = None
) -> list[Message]:
    """The turn's ground-truth calls, as a model would send them (no session token)."""
    answers = []
    for api in turn.get("apis") or []:
        params = without_token(api["request"]["parameters"])
        if with_token:
            params = {"session_token": "model-copied-token", **params}
        answers.append(call(api["request"]["api_name"], compact(params), content))
    return answers


class GroundTruth(Policy):
    """The turn's ground-truth calls (compact JSON, no session_token), then its text."""

    name = "gt"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        return [*gt_calls(turn), text(turn["text"])]


class Fail(Policy):
    """One failing call (kind by turn), then the turn's text."""

    name = "fail"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        return [
            failing_call(FAILURES[k % len(FAILURES)], turn.get("apis") or []),
            text(turn["text"]),
        ]


class FailThenGroundTruth(Policy):
    """One failing call, then the ground-truth calls and text (state after a failure)."""

    name = "fail_gt"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        failing = failing_call(FAILURES[k % len(FAILURES)], turn.get("apis") or [])
        return [failing, *gt_calls(turn), text(turn["text"])]


class Malformed(Policy):
    """One call whose argument text is not a JSON object (kind by turn), then `gt`."""

    name = "malformed"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        bad = malformed_call(MALFORMED[k % len(MALFORMED)], turn.get("apis") or [])
        return [bad, *gt_calls(turn), text(turn["text"])]


class TokenCopied(Policy):
    """The model copies a session_token into its calls (first key, made-up value)."""

    name = "gt_token"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        return [*gt_calls(turn, with_token=True), text(turn["text"])]


class ContentWithCall(Policy):
    """Text beside every call, and a non-ASCII call first."""

    name = "gt_content"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        extra = call(
            "CurrentWeather",
            json.dumps({"location": "Zürich ☂"}, ensure_ascii=False),
            "Un instant…",
        )
        return [extra, *gt_calls(turn, content="Let me check that for you."), text(turn["text"])]


class Relogin(Policy):
    """Log out, log in again as the conversation's user, then `gt` (tokens drawn mid-turn)."""

    name = "relogin"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        user = self.conversation.get("user") or {}
        credentials = {"username": user.get("username"), "password": user.get("password")}
        return [
            call("LogoutUser", "{}"),
            call("UserLogin", json.dumps(credentials)),
            *gt_calls(turn),
            text(turn["text"]),
        ]


class WeirdValues(Policy):
    """Two calls with odd argument values (WEIRD, by turn), then the turn's text."""

    name = "weird"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        picks = [WEIRD[(2 * k) % len(WEIRD)], WEIRD[(2 * k + 1) % len(WEIRD)]]
        return [*(call(n, json.dumps(p, ensure_ascii=False)) for n, p in picks), text(turn["text"])]


class ActThenRead(Policy):
    """Create something, then read it back (event, reminder or alarm by turn), then the text."""

    name = "act_read"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        stamp = self.conversation["metadata"]["timestamp"]
        now = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S")  # noqa: DTZ007 - dates only
        day, today = (now + timedelta(days=1)).strftime("%Y-%m-%d"), now.strftime("%Y-%m-%d")
        if k % 3 == 0:
            event = {
                "name": "Capture check",
                "event_type": "event",
                "start_time": f"{day} 10:00:00",
                "end_time": f"{day} 11:00:00",
                "location": "Room 1",
            }
            act = call("CreateEvent", json.dumps(event))
            read = call(
                "QueryCalendar",
                json.dumps({"start_time": f"{today} 00:00:00", "end_time": f"{day} 23:59:59"}),
            )
        elif k % 3 == 1:
            act = call(
                "AddReminder", json.dumps({"task": "Capture check", "due_date": f"{day} 09:00:00"})
            )
            read = call("GetReminders", "{}")
        else:
            act = call("AddAlarm", json.dumps({"time": "06:45:00"}))
            read = call("FindAlarms", "{}")
        return [act, read, text(turn["text"])]


class ModifyThenRead(Policy):
    """Partial updates: a ModifyEvent that renames then fails, an account update that saves the
    email then fails, each read back; then `gt` (its effects must not leak into later turns)."""

    name = "partial"

    def plan(self, k: int, turn: dict[str, Any]) -> list[Message]:
        user = self.conversation.get("user") or {}
        if k % 2 == 0:
            first = call(
                "UpdateAccountInformation",
                json.dumps(
                    {
                        "password": user.get("password"),
                        "new_email": "partial@example.com",
                        "new_phone_number": "12",
                    }
                ),
            )
            read = call("GetAccountInformation", "{}")
        else:
            first = call(
                "ModifyEvent",
                json.dumps(
                    {
                        "event_id": "5480d946-2381",
                        "new_name": "Renamed",
                        "new_start_time": "2023-09-20 10:00:00",
                    }
                ),
            )
            read = call(
                "QueryCalendar",
                json.dumps(
                    {"start_time": "2023-09-01 00:00:00", "end_time": "2023-10-01 00:00:00"}
                ),
            )
        return [first, read, *gt_calls(turn), text(turn["text"])]


POLICIES: dict[str, Callable[[dict[str, Any]], Policy]] = {
    p.name: p
    for p in (
        GroundTruth,
        Fail,
        FailThenGroundTruth,
        Malformed,
        TokenCopied,
        ContentWithCall,
        Relogin,
        WeirdValues,
        ActThenRead,
        ModifyThenRead,
    )
}
"""Policy name -> policy class."""

SETTINGS: dict[str, dict[str, Any]] = {
    "gt": {"policy": "gt"},
    "fail": {"policy": "fail"},
    "fail_gt": {"policy": "fail_gt"},
    "malformed": {"policy": "malformed"},
    "gt_token": {"policy": "gt_token"},
    "gt_content": {"policy": "gt_content"},
    "relogin": {"policy": "relogin"},
    "weird": {"policy": "weird"},
    "act_read": {"policy": "act_read"},
    "partial": {"policy": "partial"},
    "gt_suite": {"policy": "gt", "api_mode": "suite"},
    "gt_exact": {"policy": "gt", "api_mode": "exact"},
    "gt_nodocs": {"policy": "gt", "disable_documentation": True},
}
"""Captured settings: a policy, and the reference's `--api_mode` and documentation ablation."""
