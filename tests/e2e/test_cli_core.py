"""The CLI end to end: run, validate, suites, tools, score."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from toolplay.cli import app

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.output


def test_run_oracle_on_quick_writes_the_run_directory(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = invoke("run", "--assistant", "oracle", "--suite", "quick", "--out", str(out))
    assert code == 0, output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["scenarios"] == summary["completed"] == 5
    assert summary["errors"] == 0 and summary["error_list"] == []
    assert isinstance(summary["metrics"], dict) and summary["metrics"]
    assert summary["assistant"] == "oracle" and summary["user"] == "scripted"
    assert json.loads((out / "config.json").read_text())["suite"] == "quick"
    assert (out / "run.sqlite").exists()
    files = sorted(p.name for p in (out / "trajectories").iterdir())
    assert len(files) == 5 and all(f.endswith(".t0.jsonl") for f in files)
    lines = [
        json.loads(line) for line in (out / "trajectories" / files[0]).read_text().splitlines()
    ]
    kinds = [line["type"] for line in lines]
    assert kinds[0] == "header" and kinds[-1] == "score" and "message" in kinds
    assert "completed" in output and "scenarios" in output  # the summary table was printed


def test_same_run_twice_gives_byte_identical_files(tmp_path: Path) -> None:
    for name in ("a", "b"):
        assert invoke("run", "--out", str(tmp_path / name))[0] == 0
    for relative in [
        "summary.json",
        *[f"trajectories/{p.name}" for p in (tmp_path / "a" / "trajectories").iterdir()],
    ]:
        assert (tmp_path / "a" / relative).read_bytes() == (tmp_path / "b" / relative).read_bytes()


def test_existing_run_directory_needs_resume(tmp_path: Path) -> None:
    out = str(tmp_path / "run")
    assert invoke("run", "--out", out, "--limit", "2")[0] == 0
    code, output = invoke("run", "--out", out, "--limit", "2")
    assert code == 2 and "already holds a run" in output
    code, output = invoke("run", "--out", out, "--limit", "2", "--resume")
    assert code == 0, output
    code, output = invoke("run", "--out", out, "--limit", "3", "--resume")
    assert code == 2 and "different configuration" in output


def test_validate_quick_passes() -> None:
    code, output = invoke("validate", "--suite", "quick")
    assert code == 0, output
    assert "passed validation" in output


def test_validate_reports_a_scenario_the_oracle_fails(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "id: wrong_reference\n"
        "world: {domains: [contacts]}\n"
        "user: {script: ['Remove Bob']}\n"
        "reference:\n"
        "  - user: Remove Bob\n"
        "    calls: [{name: remove_contact, arguments: {person_id: nobody}, check: true,"
        " result: null}]\n",
        encoding="utf-8",
    )
    code, output = invoke("validate", "--suite", str(tmp_path))
    assert code == 1
    assert "wrong_reference" in output and "No contact with person_id 'nobody'" in output


def test_bad_inputs_are_one_line_errors(tmp_path: Path) -> None:
    code, output = invoke("run", "--suite", "nope", "--out", str(tmp_path / "x"))
    assert code == 2 and output.strip().startswith("error:") and "unknown suite" in output
    assert not (tmp_path / "x").exists()
    code, output = invoke("run", "--assistant", "martian", "--out", str(tmp_path / "y"))
    assert code == 2 and "unknown assistant" in output
    code, output = invoke("score", str(tmp_path / "missing"))
    assert code == 2 and "no run store here" in output


def test_suites_and_tools_list_content() -> None:
    code, output = invoke("suites")
    assert code == 0 and "quick" in output
    code, output = invoke("tools")
    assert code == 0 and "send_message_with_phone_number" in output and "action" in output


def test_score_recomputes_the_same_summary(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert invoke("run", "--out", str(out))[0] == 0
    before = (out / "summary.json").read_bytes()
    code, output = invoke("score", str(out))
    assert code == 0, output
    assert (out / "summary.json").read_bytes() == before


def test_no_call_assistant_scores_zero_on_quick(tmp_path: Path) -> None:
    out = tmp_path / "nocall"
    code, output = invoke("run", "--assistant", "no-call", "--out", str(out))
    assert code == 0, output
    for path in (out / "trajectories").iterdir():
        score = json.loads(path.read_text().splitlines()[-1])
        assert score["type"] == "score" and score["score"] == 0.0, path.name


def test_validate_flags_an_oracle_cut_short_by_the_turn_limit(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "id: too_short\n"
        "max_turns: 2\n"
        "world: {domains: [contacts]}\n"
        "user: {script: ['Add Ann +15550001111']}\n"
        "reference:\n"
        "  - user: Add Ann +15550001111\n"
        "    calls: [{name: add_contact, arguments: {name: Ann, phone_number: '+15550001111'}}]\n"
        "    reply: Added.\n",
        encoding="utf-8",
    )
    code, output = invoke("validate", "--suite", str(tmp_path))
    assert code == 1 and "too_short: oracle run hit the turn limit" in output
