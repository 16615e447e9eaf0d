"""The ToolTalk importer: the official data as scenarios, and clear refusals of bad files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import support
from support import load_suite
from toolplay.domains.tooltalk import DOMAIN_NAMES
from toolplay.methods.tooltalk._scoring import ground_truth
from toolplay.scenarios import ScenarioError, Suite
from toolplay.validate import check_reference_results


def test_official_data_imports_as_two_splits(tooltalk_suite: Suite) -> None:
    scenarios = tooltalk_suite.scenarios
    assert tooltalk_suite.default_mode == "static"
    assert len(scenarios) == 78
    assert sum(s.split == "easy" for s in scenarios) == 28
    assert sum(s.split == "tooltalk" for s in scenarios) == 50
    assert sum(len(t.calls) for s in scenarios for t in s.reference) == 266
    assert sum(bool(s.world.session["session_token"]) for s in scenarios) == 64
    assert all(
        s.evaluation == "tooltalk" and s.world.domains == list(DOMAIN_NAMES) for s in scenarios
    )


def test_databases_are_shared_not_copied(tooltalk_suite: Suite) -> None:
    first, second = tooltalk_suite.scenarios[0], tooltalk_suite.scenarios[40]
    for table in ("tooltalk_events", "tooltalk_inbox", "tooltalk_reminders", "tooltalk_weather"):
        assert first.world.tables[table] is second.world.tables[table]


def test_conversation_fields(tooltalk_suite: Suite) -> None:
    scenario = next(s for s in tooltalk_suite.scenarios if s.id == "easy.AddAlarm-easy")
    assert scenario.world.clock.isoformat() == "2023-09-11T13:00:00+00:00"
    assert scenario.world.session == {
        "session_token": "98a5a87a-7714-b404",
        "username": "justinkool",
    }
    assert scenario.metadata["location"] == "New York"
    assert scenario.metadata["file"] == "easy/AddAlarm-easy.json"
    assert "New York" in scenario.metadata["system_prompt"]
    call = scenario.reference[0].calls[0]
    assert (call.name, call.arguments, call.result, call.check) == (
        "AddAlarm",
        {"time": "18:30:00"},
        {"alarm_id": "5bff-dd80"},
        True,
    )
    assert scenario.reference[1].reply is None  # the closing user turn has no answer
    account = next(
        r for r in scenario.world.tables["tooltalk_accounts"] if r["username"] == "justinkool"
    )
    assert account["session_token"] == "98a5a87a-7714-b404"


def test_consecutive_user_turns_stay_apart(tooltalk_suite: Suite) -> None:
    scenario = next(s for s in tooltalk_suite.scenarios if s.id.endswith("RegisterUser-0"))
    lonely = [t for t in scenario.reference if t.user is not None and t.reply is None]
    assert lonely, "the conversation with two user turns in a row keeps both"


def test_every_reference_call_reproduces(tooltalk_suite: Suite) -> None:
    judge = support.CATALOG.scorer("tooltalk").reference_check
    problems = [
        p
        for s in tooltalk_suite.scenarios
        for p in check_reference_results(support.setup(s), judge)
    ]
    assert problems == []


def test_derived_session_tokens_equal_recorded_ones(
    tooltalk_dir: Path, tooltalk_suite: Suite
) -> None:
    """The scorer derives the token each call ran under; the dataset recorded it."""
    checked = 0
    for scenario in tooltalk_suite.scenarios:
        raw = json.loads((tooltalk_dir / scenario.metadata["file"]).read_text())
        recorded = [
            api["request"]["parameters"].get("session_token")
            for turn in raw["conversation"]
            for api in turn.get("apis", [])
        ]
        truths, _ = ground_truth(scenario)
        for truth, token in zip(truths, recorded, strict=True):
            if token is not None:
                assert truth.call.session_token == token, scenario.id
                checked += 1
    assert checked > 200


def _copy(tooltalk_dir: Path, tmp_path: Path) -> Path:
    target = tmp_path / "tt"
    shutil.copytree(tooltalk_dir / "databases", target / "databases")
    (target / "easy").mkdir()
    shutil.copy(tooltalk_dir / "easy" / "AddAlarm-easy.json", target / "easy")
    return target


def test_bad_conversation_file_is_refused_with_file_and_field(
    tooltalk_dir: Path, tmp_path: Path
) -> None:
    root = _copy(tooltalk_dir, tmp_path)
    path = root / "easy" / "AddAlarm-easy.json"
    data = json.loads(path.read_text())
    data["metadata"]["timestamp"] = "11/09/2023"
    path.write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as caught:
        load_suite(f"tooltalk:{root}")
    assert caught.value.source == str(path)
    assert caught.value.field == "metadata.timestamp"
    path.write_text("{not json")
    with pytest.raises(ScenarioError, match="invalid JSON at line 1"):
        load_suite(f"tooltalk:{root}")


def test_unknown_tool_in_ground_truth_is_refused(tooltalk_dir: Path, tmp_path: Path) -> None:
    root = _copy(tooltalk_dir, tmp_path)
    path = root / "easy" / "AddAlarm-easy.json"
    data = json.loads(path.read_text())
    data["conversation"][1]["apis"][0]["request"]["api_name"] = "AddAlarms"
    path.write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as caught:
        load_suite(f"tooltalk:{root}")
    assert caught.value.field == "conversation[turn 0].apis[0].request.api_name"  # the file's
    assert "'AddAlarms'" in caught.value.reason


def test_bad_database_record_is_refused(tooltalk_dir: Path, tmp_path: Path) -> None:
    root = _copy(tooltalk_dir, tmp_path)
    path = root / "databases" / "Alarm.json"
    data = json.loads(path.read_text())
    owner = next(iter(data))
    alarm = next(iter(data[owner]))
    data[owner][alarm]["snooze"] = True
    path.write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as caught:
        load_suite(f"tooltalk:{root}")
    assert caught.value.source == str(path)
    assert caught.value.field == f"{owner}.{alarm}"
    assert "snooze" in caught.value.reason


def test_missing_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="not a folder"):
        load_suite(f"tooltalk:{tmp_path / 'nowhere'}")
    with pytest.raises(ScenarioError, match="missing databases folder"):
        load_suite(f"tooltalk:{tmp_path}")
