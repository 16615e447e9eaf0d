"""Issue 14 item 1: a run stores its suite with absolute paths and a content fingerprint.

`score`, `--resume` and the report then work from any folder; a moved suite or changed files
are refused with a clear reason."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from toolplay.cli import app
from toolplay.runs import CONFIG_VERSION
from toolplay.runs._suite_pin import fingerprint, pin_suite
from toolplay.scenarios import DATA

TOOLTALK = Path(__file__).parents[2] / ".." / "shared" / "tooltalk"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.stdout + result.stderr


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder holding a suite folder, as the working directory."""
    root = tmp_path / "project"
    shutil.copytree(DATA / "quick", root / "mysuite")
    monkeypatch.chdir(root)
    return root


def test_a_relative_suite_is_stored_absolute_and_scores_from_elsewhere(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, output = invoke("run", "--suite", "mysuite", "--out", "../r", "--limit", "2")
    assert code == 0, output
    config = json.loads((project.parent / "r/config.json").read_text())
    assert config["suite"] == str(project / "mysuite")
    assert config["suite_fingerprint"] == fingerprint(project / "mysuite")
    monkeypatch.chdir(project.parent)  # the parent folder, where `mysuite` means nothing
    code, output = invoke("score", "r")
    assert code == 0, output
    code, output = invoke("run", "--resume", "--out", "r")
    assert code == 0, output
    code, output = invoke("report", "r")  # the report finds the suite: categories are there
    assert code == 0, output
    html = (project.parent / "r/report.html").read_text(encoding="utf-8")
    assert "multiple_tool_call" in html and "single_user_turn" in html


def test_changed_or_moved_suite_files_are_refused_clearly(project: Path) -> None:
    assert invoke("run", "--suite", "mysuite", "--out", "r", "--limit", "1")[0] == 0
    with (project / "mysuite/settings.yaml").open("a") as handle:
        handle.write("# edited\n")
    code, output = invoke("score", "r")
    assert code == 2 and "files of suite" in output and "changed" in output
    code, output = invoke("run", "--resume", "--out", "r")
    assert code == 2 and "changed since the run was stored" in output
    (project / "mysuite").rename(project / "elsewhere")
    code, output = invoke("score", "r")
    assert code == 2 and f"suite {project / 'mysuite'} no longer exists (moved" in output


@pytest.mark.skipif(not TOOLTALK.is_dir(), reason="needs the ToolTalk data in ../shared/tooltalk")
def test_an_importer_argument_is_made_absolute(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    relative = Path(*[".."] * len(project.parts[1:])) / TOOLTALK.resolve().relative_to("/")
    spec = f"tooltalk:{relative}"
    code, output = invoke("run", "--suite", spec, "--out", "../t", "--limit", "1")
    assert code == 0, output
    config = json.loads((project.parent / "t/config.json").read_text())
    assert config["suite"] == f"tooltalk:{TOOLTALK.resolve()}"
    monkeypatch.chdir(project.parent)
    assert invoke("score", "t")[0] == 0


def test_version_2_configs_migrate_without_a_fingerprint(project: Path) -> None:
    from toolplay.runs import RunConfig

    config = RunConfig.model_validate({"version": 2, "suite": "mysuite", "out": "x"})
    assert (
        config.version == CONFIG_VERSION
        and config.suite_fingerprint is None
        and config.suite == "mysuite"
    )


@given(st.sampled_from(["quick", "sandbox", "no/such/path", "tooltalk:missing?x=1"]))
def test_specs_without_an_existing_relative_path_are_kept(spec: str) -> None:
    assert pin_suite(spec, {"tooltalk"}, {"quick", "sandbox"}) == spec


def test_a_query_after_the_path_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path)
    pinned = pin_suite("autode-data:data?required=marked", {"autode-data"}, set())
    assert pinned == f"autode-data:{tmp_path / 'data'}?required=marked"
