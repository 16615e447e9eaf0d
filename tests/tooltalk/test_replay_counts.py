"""Replayed prediction sets give the counts ToolTalk's evaluator defines (derived by hand).

Each case replays predictions in ToolTalk's output layout for one official conversation and
checks the run's counts and error types. Expectations follow the reference's definitions: every
predicted call is a prediction, every predicted action call (failed ones too) is an action, an
incorrect action is an unmatched action that ran without error. Where toolplay fixes a
reference defect, the comment says what the reference would have given.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from toolplay.runs import RunConfig, execute_run

TOKEN = "98a5a87a-7714-b404"


def api(tool: str, /, **parameters: Any) -> dict[str, Any]:
    return {"role": "api", "request": {"api_name": tool, "parameters": parameters}}


def text(value: str = "ok") -> dict[str, Any]:
    return {"role": "assistant", "text": value}


def replay(
    tmp_path: Path, source: Path, conversation: str, predictions: dict[int, list[dict[str, Any]]]
) -> dict[str, Any]:
    """Run one conversation with the given predictions per assistant turn (file turn index)."""
    split, name = conversation.split("/")
    data, saved = tmp_path / "data", tmp_path / "saved"
    (data / split).mkdir(parents=True)
    (saved / split).mkdir(parents=True)
    (data / "databases").symlink_to(source / "databases")
    raw = json.loads((source / conversation).read_text())
    (data / split / name).write_text(json.dumps(raw))
    for index, turn in enumerate(raw["conversation"]):
        if turn["role"] == "assistant":
            turn["predictions"] = predictions.get(index, [text()])
    (saved / split / name).write_text(json.dumps(raw))
    config = RunConfig(suite=f"tooltalk:{data}", assistant=f"replay:{saved}", out=tmp_path / "run")
    return asyncio.run(execute_run(config)).to_json()


def counts(**values: int) -> dict[str, int]:
    base = {
        "conversations": 1,
        "predictions": 0,
        "ground_truth": 0,
        "matches": 0,
        "actions": 0,
        "incorrect_actions": 0,
        "successes": 0,
    }
    return {**base, **values}


def errors(premature: int = 0, planning: int = 0, invocation: int = 0) -> dict[str, int]:
    return {
        "premature_call": premature,
        "faulty_planning": planning,
        "incorrect_invocation": invocation,
    }


ALARM = "easy/AddAlarm-easy.json"
WALK = "tooltalk/golden_conversation_2.json"
FIND = "tooltalk/AccountTools-Alarm-Messages-FindAlarm-0.json"
MESSAGE = "easy/SendMessage-easy.json"
REMINDER = "tooltalk/Calendar-Reminder-Weather-ModifyEvent-1.json"
WALK_QUERY = {"start_time": "2023-09-11 13:20:00", "end_time": "2023-09-11 14:20:00"}
WALK_EVENT = {"name": "Walk", "event_type": "event", **WALK_QUERY}

CASES: dict[str, tuple[str, dict[int, list[dict[str, Any]]], dict[str, int], dict[str, int]]] = {
    # the ground truth itself, sent with the (ignored) session token as ToolTalk outputs have it
    "perfect": (
        WALK,
        {
            1: [api("QueryCalendar", session_token=TOKEN, **WALK_QUERY), text()],
            3: [api("CreateEvent", session_token=TOKEN, **WALK_EVENT), text()],
        },
        counts(predictions=2, ground_truth=2, matches=2, actions=1, successes=1),
        errors(),
    ),
    # FindAlarms and two of the four deletions dropped: 4 of 7 found, nothing incorrect
    "dropped_calls": (
        FIND,
        {
            3: [
                api("UserLogin", username="ahhchiu", password="eehahTe2t"),
                api("AddAlarm", time="08:00:00"),
                text(),
            ],
            5: [text("Which one?")],
            7: [
                api("DeleteAlarm", alarm_id="593d-49e9"),
                api("DeleteAlarm", alarm_id="4631-000e"),
                text(),
            ],
        },
        counts(predictions=4, ground_truth=7, matches=4, actions=4),
        errors(planning=2),
    ),
    # the event booked an hour late: it ran, matches nothing, so it is an incorrect action;
    # a wider calendar query still returns every ground-truth event (none) and matches
    "changed_arguments": (
        WALK,
        {
            1: [
                api(
                    "QueryCalendar",
                    start_time="2023-09-11 13:00:00",
                    end_time="2023-09-11 18:00:00",
                ),
                text(),
            ],
            3: [
                api(
                    "CreateEvent",
                    name="Walk",
                    event_type="event",
                    start_time="2023-09-11 14:20:00",
                    end_time="2023-09-11 15:20:00",
                ),
                text(),
            ],
        },
        counts(predictions=2, ground_truth=2, matches=1, actions=1, incorrect_actions=1),
        errors(invocation=1),
    ),
    # a second alarm nobody asked for (incorrect) and an extra read (harmless but imprecise)
    "extra_calls": (
        ALARM,
        {
            1: [
                api("AddAlarm", time="18:30:00"),
                api("AddAlarm", time="19:00:00"),
                api("CurrentWeather", location="New York"),
                text(),
            ]
        },
        counts(predictions=3, ground_truth=1, matches=1, actions=2, incorrect_actions=1),
        errors(planning=1),
    ),
    # a failing action and an unknown tool are predictions, neither is an incorrect action
    "failing_calls": (
        ALARM,
        {
            1: [
                api("AddAlarm", time="6:30pm"),
                api("SetAlarm", time="18:30:00"),
                api("AddAlarm", time="18:30:00"),
                text(),
            ]
        },
        counts(predictions=3, ground_truth=1, matches=1, actions=2, successes=1),
        errors(),
    ),
    # no calls at all: recall 0, precision undefined (the reference divided by zero)
    "no_calls": (
        WALK,
        {},
        counts(predictions=0, ground_truth=2),
        errors(planning=2),
    ),
    # a message sent before the user said what to write: a premature (incorrect) action
    "premature_call": (
        MESSAGE,
        {
            1: [
                api(
                    "SendMessage",
                    receiver="justinkool",
                    message="I will bring the quarterly report tomorrow morning.",
                ),
                text(),
            ],
            3: [api("SendMessage", receiver="justinkool", message="Hello, how are you?"), text()],
        },
        counts(predictions=2, ground_truth=1, matches=1, actions=2, incorrect_actions=1),
        errors(premature=1),
    ),
    # the right words to the wrong person (the reference ignored the receiver: 1 match, 0 bad)
    "wrong_receiver": (
        MESSAGE,
        {3: [api("SendMessage", receiver="mstein", message="Hello, how are you?"), text()]},
        counts(predictions=1, ground_truth=1, actions=1, incorrect_actions=1),
        errors(invocation=1),
    ),
    # a reminder with a null due date ran but matches nothing (the reference crashed on it);
    # the one due later the same day matches (only the day counts)
    "null_due_date": (
        REMINDER,
        {
            1: [
                api(
                    "QueryCalendar",
                    start_time="2023-09-29 00:00:00",
                    end_time="2023-09-30 23:59:59",
                ),
                text(),
            ],
            3: [
                api(
                    "ModifyEvent",
                    event_id="2ff57743-1180",
                    new_start_time="2023-09-30 11:00:00",
                    new_end_time="2023-09-30 11:30:00",
                ),
                api("AddReminder", task="Leave the house", due_date=None),
                api("AddReminder", task="Leave the house", due_date="2023-09-29 18:00:00"),
                text(),
            ],
        },
        counts(predictions=4, ground_truth=3, matches=3, actions=3, incorrect_actions=1),
        errors(planning=1),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_replayed_predictions_give_reference_counts(
    case: str, tmp_path: Path, tooltalk_dir: Path
) -> None:
    conversation, predictions, expected_counts, expected_errors = CASES[case]
    summary = replay(tmp_path, tooltalk_dir, conversation, predictions)
    assert summary["errors"] == 0, summary["error_list"]
    assert summary["sections"]["tooltalk"]["counts"] == expected_counts
    assert summary["sections"]["tooltalk"]["error_types"] == expected_errors
    split = conversation.split("/")[0]
    assert summary["sections"]["tooltalk"]["splits"][split]["counts"] == expected_counts
    metrics = summary["metrics"]
    c = expected_counts
    assert metrics["recall"] == c["matches"] / c["ground_truth"]
    assert metrics["precision"] == (c["matches"] / c["predictions"] if c["predictions"] else None)
    rate = c["incorrect_actions"] / c["actions"] if c["actions"] else 0.0
    assert metrics["incorrect_action_rate"] == rate
    assert metrics["success_rate"] == c["successes"]
    assert metrics["soft_success_rate"] == pytest.approx(metrics["recall"] * (1 - rate))


def test_missing_prediction_file_is_an_infrastructure_error(
    tmp_path: Path, tooltalk_dir: Path
) -> None:
    data, saved = tmp_path / "data", tmp_path / "saved"
    (data / "easy").mkdir(parents=True)
    saved.mkdir()
    (data / "databases").symlink_to(tooltalk_dir / "databases")
    (data / "easy" / "AddAlarm-easy.json").write_text((tooltalk_dir / ALARM).read_text())
    config = RunConfig(suite=f"tooltalk:{data}", assistant=f"replay:{saved}", out=tmp_path / "run")
    summary = asyncio.run(execute_run(config)).to_json()
    assert summary["errors"] == 1 and summary["completed"] == 0
    assert "no saved predictions for easy.AddAlarm-easy" in summary["error_list"][0]["error"]
