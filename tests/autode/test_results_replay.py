"""Published AutoDE result files, scored without a model, against the reference's figures."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import support
from toolplay.cli import app
from toolplay.clients import RoleOptionError
from toolplay.methods.autode import AutodeResultsReplay
from toolplay.roles import RecordingError
from toolplay.scenarios import Suite

from .conftest import AUTODE

TOLERANCE = 1e-9


def expected_files() -> list[dict[str, Any]]:
    path = AUTODE / "expected_public.json"
    if not path.is_file():
        return [{"file": "(AutoDE data absent)"}]
    return list(json.loads(path.read_text(encoding="utf-8"))["files"])


def replay_metrics(suite: Suite, file: Path, requested: int = 1) -> dict[str, Any]:
    """Every (dialogue, trial) of a results file read and scored in process: the metrics and
    AutoDE's section (failures, spread over trials) together."""
    replay = AutodeResultsReplay(file)
    trials = replay.trials([s.id for s in suite.scenarios], requested)
    records = [
        (s, support.score(s, replay.recorded(support.setup(s), t)))
        for s in suite.scenarios
        for t in range(trials)
    ]
    summary = support.summarise(records)
    return {**summary["metrics"], **summary["sections"]["slots"]}


@pytest.mark.parametrize("expected", expected_files(), ids=lambda e: Path(e["file"]).name)
def test_every_public_file_matches_the_reference(
    autode_suite: Suite, autode_dir: Path, expected: dict[str, Any]
) -> None:
    file = autode_dir / expected["file"]
    if not expected["scored"]:
        missing = re.search(r"gold uuid (\S+) has no record", expected["why_unusable"])
        assert missing is not None
        with pytest.raises(RecordingError, match=f"no record of dialogue {missing.group(1)}"):
            replay_metrics(autode_suite, file)
        return
    metrics = replay_metrics(autode_suite, file)
    assert metrics["trials"] == expected["trials"]
    assert metrics["dialogues"] == expected["n_dialogues"] * expected["trials"]
    assert abs(metrics["slot_precision"] - expected["precision"]) < TOLERANCE
    assert abs(metrics["slot_recall"] - expected["recall"]) < TOLERANCE
    assert abs(metrics["slot_f1"] - expected["f1"]) < TOLERANCE
    std = metrics["over_trials"]["slot_f1"]["std"]
    if expected["f1_std"] is None:
        assert std is None
    else:
        assert abs(std - expected["f1_std"]) < TOLERANCE


def test_fewer_trials_can_be_asked_for_never_more(autode_suite: Suite, autode_dir: Path) -> None:
    file = autode_dir / "results" / "u_llama7b_a_codellama13b_oasst_4rounds.jsonl"
    two = replay_metrics(autode_suite, file, requested=2)
    assert two["trials"] == 2
    assert two["slot_f1"] == pytest.approx((0.5422005317785372 + 0.551450341653431) / 2)
    with pytest.raises(RecordingError, match="holds 4 trial"):
        AutodeResultsReplay(file).trials([s.id for s in autode_suite.scenarios], 5)


def test_recorded_endings_become_the_trajectory(autode_suite: Suite, autode_dir: Path) -> None:
    replay = AutodeResultsReplay(
        autode_dir / "results" / "u_llama7b_a_codellama13b_oasst_4rounds.jsonl"
    )
    by_id = {s.id: s for s in autode_suite.scenarios}
    seen: dict[str, str] = {}
    for uuid in by_id:
        for trial, line in enumerate(replay.lines(uuid)[:4]):
            trajectory = replay.recorded(support.setup(by_id[uuid]), trial)
            assert trajectory.mode == "recorded" and trajectory.assistant == replay.name
            found = support.details(support.score(by_id[uuid], trajectory))
            seen.setdefault(trajectory.termination, line.reason)
            if line.reason == "Round limit reached":
                assert trajectory.termination == "turn_limit"
                assert found["reason"] == "Round limit reached"
                assert sum(m.sender == "assistant" for m in trajectory.messages) == 8
            elif line.reason.startswith("Arguments parse failed: "):
                assert found["failure"] == "parse_failure"
                assert found["reason"] == line.reason
            elif line.reason:
                assert trajectory.termination == "assistant_error"
                assert found["reason"] == line.reason
            if line.slots:
                assert found["predicted"]["slots"] == line.slots
                assert found["state"] == "success"
    assert set(seen) == {"completed", "turn_limit", "assistant_error"}


def test_a_recording_is_read_not_played(autode_suite: Suite, autode_dir: Path) -> None:
    replay = AutodeResultsReplay(
        autode_dir / "results" / "u_gpt35_a_codellama13b_oasst_1round.jsonl"
    )
    trajectory = asyncio.run(support.play("autode-protocol", autode_suite.scenarios[0], replay))
    assert trajectory.termination == "infrastructure_error"
    assert "is a recording" in (trajectory.error or "")


def write(path: Path, *records: object) -> Path:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records))
    return path


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ("{oops", "line 1: invalid JSON"),
        ({"content": [], "slots": {}}, "line 1: field 'uuid'"),
        ({"uuid": "u", "content": [{"role": "Bot", "message": "x"}], "slots": {}}, "content[0]"),
        ({"uuid": "u", "content": [], "slots": {"n": 3}}, "slots ['n'] hold values"),
        (
            {
                "uuid": "u",
                "content": [],
                "slots": {},
                "reason": 'Arguments parse failed: {"a": "b"}',
            },
            "its text parses as a JSON object",
        ),
    ],
)
def test_a_bad_results_line_is_refused_naming_file_and_line(
    tmp_path: Path, record: object, reason: str
) -> None:
    file = write(tmp_path / "bad.jsonl", record)
    with pytest.raises(RoleOptionError, match=re.escape(reason)):
        AutodeResultsReplay(file)


runner = CliRunner()


def test_the_cli_writes_a_run_for_a_results_file(autode_dir: Path, tmp_path: Path) -> None:
    file = autode_dir / "results" / "u_gpt35_a_codellama13b_oasst_1round.jsonl"
    out = tmp_path / "run"
    result = runner.invoke(
        app,
        [
            "run",
            "--suite",
            f"autode-data:{autode_dir}",
            "--assistant",
            f"replay:{file}",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    metrics, slots = summary["metrics"], summary["sections"]["slots"]
    assert abs(metrics["slot_f1"] - 0.6482460781853363) < TOLERANCE
    assert abs(metrics["slot_precision"] - 0.6551860478490914) < TOLERANCE
    assert slots["over_trials"]["slot_f1"]["std"] is None
    assert slots["failure_reasons"]["Round limit reached"] == 16
    assert summary["trials"]["k"] == 1 and summary["completed"] == 276
    assert summary["mode"] == "autode-protocol" and summary["termination"]["turn_limit"] == 16
    rescored = runner.invoke(app, ["score", str(out)])
    assert rescored.exit_code == 0, rescored.output
    again = json.loads((out / "summary.json").read_text())["metrics"]
    assert again["slot_f1"] == metrics["slot_f1"]


def test_the_cli_refuses_a_file_missing_a_dialogue(autode_dir: Path, tmp_path: Path) -> None:
    file = autode_dir / "results" / "u_gpt35_a_gpt35.jsonl"
    out = tmp_path / "run"
    result = runner.invoke(
        app,
        [
            "run",
            "--suite",
            f"autode-data:{autode_dir}",
            "--assistant",
            f"replay:{file}",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code != 0
    assert "no record of dialogue a3e9bb13-d700-4319-a9f9-b03cf0c51f02" in result.output
    assert not (out / "summary.json").exists()
