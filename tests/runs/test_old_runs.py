"""Run folders written by an earlier toolplay (summary.json version 1, config.json version 5)
still load, score, resume, report and compare, with the same numbers (tests/fixtures/runs)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toolplay.cli import app
from toolplay.runs import RunConfig, load_summary
from toolplay.store import RunStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def cli(*args: str, columns: int = 200) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})
    return result.exit_code, result.output


def copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_a_version_1_summary_loads_with_each_methods_part_in_its_section() -> None:
    old = read(FIXTURES / "v1-autode" / "summary.json")
    assert old["summary_version"] == 1 and "failures" in old["metrics"]
    summary = load_summary(FIXTURES / "v1-autode")
    assert summary.summary_version == 2 and summary.sections is not None
    slots = summary.sections["slots"]
    assert slots["failures"] == old["metrics"]["failures"]
    assert slots["failure_reasons"] == old["metrics"]["failure_reasons"]
    assert slots["over_trials"] == old["metrics"]["over_trials"]
    plain = {k: v for k, v in old["metrics"].items() if not isinstance(v, dict)}
    assert summary.metrics.values() == plain
    tooltalk = load_summary(FIXTURES / "v1-tooltalk-no-call")
    old = read(FIXTURES / "v1-tooltalk-no-call" / "summary.json")
    assert tooltalk.sections == {
        "tooltalk": {k: old[k] for k in ("counts", "error_types", "splits")}
    }


def test_an_old_run_scores_again_to_the_same_numbers(tmp_path: Path) -> None:
    run = copy("v1-autode", tmp_path)
    old = read(run / "summary.json")
    code, output = cli("score", str(run))
    assert code == 0, output
    new = read(run / "summary.json")
    assert new["summary_version"] == 2
    moved = ("failures", "failure_reasons", "over_trials")
    assert new["metrics"] == {k: v for k, v in old["metrics"].items() if k not in moved}
    assert new["sections"]["slots"] == {k: old["metrics"][k] for k in moved}
    same = set(old) - {"summary_version", "metrics"}
    assert {k: new[k] for k in same} == {k: old[k] for k in same}
    assert new["scoring"] == {"slot_matching": "lenient"}  # the scorer's setting, kept
    config = RunConfig.model_validate(read(run / "config.json"))
    assert config.play.components()["max_rounds"] == 6
    assert config.play.components()["max_calls_per_turn"] == 5
    assert "failures.never_called" in output and "over_trials.slot_f1" in output


def test_an_old_run_resumes_under_its_stored_settings(tmp_path: Path) -> None:
    run = copy("v1-autode", tmp_path)
    code, output = cli("run", "--resume", "--out", str(run))
    assert code == 0, output
    assert read(run / "summary.json")["completed"] == 6
    code, output = cli("run", "--resume", "--out", str(run), "--option", "max_rounds=7")
    assert code == 2 and "max_rounds: stored 6, now 7" in output


@pytest.mark.parametrize("name", ["v1-autode", "v1-tooltalk-no-call"])
def test_an_old_run_reports(tmp_path: Path, name: str) -> None:
    run = copy(name, tmp_path)
    code, output = cli("report", str(run))
    assert code == 0, output
    html = (run / "report.html").read_text(encoding="utf-8")
    if name == "v1-autode":
        assert "failures.never_called" in html and "0.000 ± 0.000" in html
    else:
        assert "By split" in html and "Error types" in html and "faulty planning" in html


def test_old_runs_compare_as_they_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("v1-tooltalk-oracle", "v1-tooltalk-no-call"):
        copy(name, tmp_path)
    monkeypatch.chdir(tmp_path)
    code, output = cli("compare", "v1-tooltalk-oracle", "v1-tooltalk-no-call", columns=100)
    assert code == 0, output
    assert output == (FIXTURES / "compare-tooltalk.txt").read_text(encoding="utf-8")


def test_an_old_tooltalk_run_scores_again_with_its_moved_suite(tmp_path: Path) -> None:
    run = copy("v1-tooltalk-oracle", tmp_path)
    suite = tmp_path / "tt.yaml"  # the name it had: the fingerprint covers it
    shutil.copy(FIXTURES / "tooltalk-suite.yaml", suite)
    store = RunStore.in_dir(run)
    try:
        store.set_meta("config", {**store.get_meta("config"), "suite": str(suite)})
    finally:
        store.close()
    old = read(run / "summary.json")
    code, output = cli("score", str(run))
    assert code == 0, output
    new = read(run / "summary.json")
    assert new["metrics"] == old["metrics"]
    assert new["sections"]["tooltalk"] == {k: old[k] for k in ("counts", "error_types", "splits")}
    assert "counts: predictions" in output and "By split" in output
