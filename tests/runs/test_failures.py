"""What a command says when something fails that is not the assistant's doing.

A scorer that raises is a scorer failure, reported alike by `toolplay run` and `toolplay
score` (the trial stored as an error naming the scorer, exit status 4), and scored once the
scorer is fixed. A bug elsewhere is an internal error: one line saying so with the path of the
traceback it wrote, exit status 70. The user's input stays a one-line error, exit status 2.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import support
from toolplay.cli import app
from toolplay.errors import INTERNAL, SCORER_FAILED, USAGE

PLUGIN = str(Path(__file__).with_name("crashing_plugin.py"))


def cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})
    return result.exit_code, result.output


def summary(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture()
def picky_suite(tmp_path: Path) -> Path:
    """The quick suite, judged by the plugin's scorer that fails on quick_add_contact."""
    return support.picky_suite(tmp_path / "suite")


def test_a_failing_scorer_reads_the_same_after_run_and_score(
    picky_suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PICKY_FIXED", raising=False)
    out = tmp_path / "run"
    code, output = cli("--plugin", PLUGIN, "run", "--suite", str(picky_suite), "--out", str(out))
    assert code == SCORER_FAILED, output
    said = " ".join(output.split())
    assert "1 scenario trial(s) could not be scored: the scorer failed" in said
    assert "scorer 'picky' failed: ValueError('scorer bug')" in said
    after_run = summary(out)
    (entry,) = after_run["error_list"]
    assert entry["scenario_id"] == "quick_add_contact"
    assert entry["error"].startswith("scorer 'picky' failed: ValueError('scorer bug')")
    assert "Traceback" in entry["error"] and after_run["completed"] == 4
    code, output = cli("score", str(out))  # the run's plugin is stored with it
    assert code == SCORER_FAILED, output
    assert "scorer 'picky' failed: ValueError('scorer bug')" in " ".join(output.split())
    after_score = summary(out)
    assert [e["scenario_id"] for e in after_score["error_list"]] == ["quick_add_contact"]
    assert after_score["completed"] == 4 and after_score["metrics"] == after_run["metrics"]
    monkeypatch.setenv("PICKY_FIXED", "1")  # the scorer's bug fixed: score scores it
    code, output = cli("score", str(out))
    assert code == 0, output
    fixed = summary(out)
    assert fixed["completed"] == 5 and fixed["errors"] == 0 and fixed["error_list"] == []


BOOM = """
from toolplay.scenarios import Suite


def register(catalog):
    catalog.add_suite("boom", lambda argument, context: 1 / 0, "a loader with a bug")
"""


def test_a_bug_is_an_internal_error_with_its_traceback_in_a_file(tmp_path: Path) -> None:
    plugin = tmp_path / "boom.py"
    plugin.write_text(BOOM, encoding="utf-8")
    command = [sys.executable, "-m", "toolplay.cli", "--plugin", str(plugin)]
    env = {**os.environ, "TMPDIR": str(tmp_path), "COLUMNS": "200"}
    done = subprocess.run(
        [*command, "validate", "--suite", "boom"], env=env, capture_output=True, text=True
    )
    assert done.returncode == INTERNAL, done.stderr
    text = " ".join(done.stderr.split())
    assert text.startswith("error: internal error, a bug in toolplay or a plugin")
    assert "ZeroDivisionError: division by zero" in text
    found = re.search(r"the traceback is in (\S+toolplay-traceback-\S+\.txt)", text)
    assert found is not None, text
    written = Path(found.group(1))
    assert written.parent == tmp_path
    traceback = written.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in traceback and "1 / 0" in traceback
    assert "validate --suite boom" in traceback  # the command that failed
    assert "Traceback" not in done.stderr  # the screen gets one line


def test_the_users_input_stays_a_one_line_error(tmp_path: Path) -> None:
    code, output = cli("run", "--suite", "no-such-suite", "--out", str(tmp_path / "x"))
    assert code == USAGE and output.startswith("error: ") and "internal error" not in output
    assert len(output.strip().splitlines()) == 1
