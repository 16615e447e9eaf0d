"""A run at a version of its suite: `score --suite-version`, `run --errata`, compare's refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolplay.cli import app
from toolplay.runs import RunConfig, migrate_config

ADD = "quick_add_contact"
TEXT = "quick_text_contact"

ERRATA = f"""\
errata_format: 1
suite: quick
entries:
  - version: "1"
    scenario: {ADD}
    what: the milestone wants Alice Chan
    why: a scoring-only change the oracle cannot meet
    set:
      milestones.0.constraints.0.rows.0.name: Alice Chan
  - version: "1.1"
    scenario: {TEXT}
    what: withdrawn
    why: a withdrawal
    withdraw: true
  - version: "2"
    scenario: {ADD}
    what: the user asks for someone else
    why: a change to what is played
    set:
      user.script.0: Please add Bo Li to my contacts.
"""


def invoke(*args: str, status: int = 0) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == status, result.output + repr(result.exception)
    return result.output


def summary(run: Path) -> dict:
    data: dict = json.loads((run / "summary.json").read_text())
    return data


def config(run: Path) -> dict:
    data: dict = json.loads((run / "config.json").read_text())
    return data


def scores(run: Path) -> dict[str, float]:
    found = {}
    for path in (run / "trajectories").glob("*.jsonl"):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record["type"] == "score":
                found[record["scenario_id"]] = record["score"]
    return found


@pytest.fixture
def errata(tmp_path: Path) -> Path:
    path = tmp_path / "errata.yaml"
    path.write_text(ERRATA)
    return path


@pytest.fixture
def oracle_run(tmp_path: Path) -> Path:
    run = tmp_path / "oracle"
    invoke("run", "--suite", "quick", "--assistant", "oracle", "--out", str(run))
    return run


def test_a_scoring_only_version_re_scores_the_stored_run(oracle_run: Path, errata: Path) -> None:
    assert summary(oracle_run)["metrics"]["similarity"] == 1.0
    assert config(oracle_run)["suite_version"] is None
    out = invoke("score", str(oracle_run), "--errata", str(errata), "--suite-version", "1")
    assert f"scored against suite version 1 ({errata.resolve()})" in out
    assert scores(oracle_run)[ADD] < 1.0  # the corrected milestone wants Alice Chan
    assert summary(oracle_run)["scenarios"] == 5
    stored = config(oracle_run)["suite_version"]
    assert stored["version"] == "1" and stored["errata"] == str(errata.resolve())
    assert stored["played"] == "none" and len(stored["digest"]) == 64
    # a plain re-score keeps the version; 1.1 withdraws a scenario; none restores the original
    invoke("score", str(oracle_run))
    assert scores(oracle_run)[ADD] < 1.0
    invoke("score", str(oracle_run), "--suite-version", "1.1")
    assert summary(oracle_run)["scenarios"] == 4
    invoke("score", str(oracle_run), "--suite-version", "none")
    assert summary(oracle_run)["metrics"]["similarity"] == 1.0
    assert summary(oracle_run)["scenarios"] == 5
    assert config(oracle_run)["suite_version"] is None


def test_a_version_that_changes_what_was_played_is_refused(oracle_run: Path, errata: Path) -> None:
    before = {p.name: p.read_bytes() for p in oracle_run.iterdir() if p.is_file()}
    out = invoke(
        "score", str(oracle_run), "--errata", str(errata), "--suite-version", "2", status=2
    )
    assert "suite version 2" in out and "changes what is played" in out
    assert f"1 scenario(s) this run holds: {ADD}" in out and "must be played again" in out
    assert {p.name: p.read_bytes() for p in oracle_run.iterdir() if p.is_file()} == before
    # without --suite-version, the file's latest version (2) is meant: refused the same way
    out = invoke("score", str(oracle_run), "--errata", str(errata), status=2)
    assert "suite version 2 of" in out


def test_run_plays_the_corrected_suite_and_resume_keeps_it(tmp_path: Path, errata: Path) -> None:
    run = tmp_path / "v2"
    invoke(
        "run",
        "--suite",
        "quick",
        "--assistant",
        "oracle",
        "--limit",
        "3",
        "--out",
        str(run),
        "--errata",
        str(errata),
        "--suite-version",
        "2",
    )
    assert TEXT not in scores(run) and summary(run)["scenarios"] == 2
    trajectory = (run / "trajectories" / f"{ADD}.t0.jsonl").read_text()
    assert "Please add Bo Li to my contacts." in trajectory
    assert config(run)["suite_version"]["version"] == "2"
    invoke("run", "--resume", "--out", str(run))  # stored settings: same version, nothing new
    assert summary(run)["scenarios"] == 2
    # back to 1 would change what was played for ADD: refused
    out = invoke("score", str(run), "--suite-version", "1", status=2)
    assert "must be played again" in out


def test_edited_entries_of_the_run_s_version_are_refused(oracle_run: Path, errata: Path) -> None:
    invoke("score", str(oracle_run), "--errata", str(errata), "--suite-version", "1")
    errata.write_text(
        ERRATA + '  - version: "3"\n    scenario: x\n    what: y\n    why: z\n    withdraw: true\n'
    )
    invoke("score", str(oracle_run))  # a later version appended: fine
    errata.write_text(ERRATA.replace("Alice Chan", "Alice Chin"))
    out = invoke("score", str(oracle_run), status=2)
    assert "changed since the run was stored" in out


def test_option_errors_name_the_option(tmp_path: Path, oracle_run: Path, errata: Path) -> None:
    out = invoke("score", str(oracle_run), "--suite-version", "1", status=2)
    assert "--suite-version: the run has no errata file; give one with --errata FILE" in out
    out = invoke(
        "score", str(oracle_run), "--errata", str(errata), "--suite-version", "7", status=2
    )
    assert "no version '7'; known: none, 1, 1.1, 2" in out
    out = invoke(
        "run", "--suite", "quick", "--suite-version", "1", "--out", str(tmp_path / "x"), status=2
    )
    assert "--suite-version: needs --errata FILE" in out
    assert not (tmp_path / "x").exists()


def test_compare_refuses_runs_at_different_versions_unless_told(
    tmp_path: Path, oracle_run: Path, errata: Path
) -> None:
    floor = tmp_path / "floor"
    invoke("run", "--suite", "quick", "--assistant", "no-call", "--out", str(floor))
    invoke("compare", str(oracle_run), str(floor))
    invoke("score", str(oracle_run), "--errata", str(errata), "--suite-version", "1")
    out = invoke("compare", str(oracle_run), str(floor), status=2)
    assert "different suite versions" in out
    assert f"oracle at 1 ({errata.resolve()}); floor at none" in out
    assert "--mixed-versions" in out
    invoke("compare", str(oracle_run), str(floor), "--mixed-versions")


def test_older_configs_migrate_to_the_original_suite() -> None:
    for version in (4, 5):
        old = {"version": version, "suite": "quick", "assistant": "oracle", "out": "runs/x"}
        assert migrate_config(old)["version"] == 7
        assert RunConfig.model_validate(old).suite_version is None
    new = {
        "version": 6,
        "suite": "quick",
        "assistant": "oracle",
        "out": "runs/x",
        "suite_version": {"errata": "/e.yaml", "version": "1.1", "digest": "d"},
    }
    assert RunConfig.model_validate(new).suite_version is not None
