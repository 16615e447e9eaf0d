"""What `make run` ends with: the run between its floor and ceiling, and next steps that work
as printed (issue 14 item 10)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolplay.cli import app
from toolplay.cli._app import command_name

TOOLPLAY = Path(sys.executable).parent / "toolplay"


def test_baselines_set_a_run_between_no_call_and_oracle(tmp_path: Path) -> None:
    run = tmp_path / "run"
    args = ["run", "--suite", "quick", "--assistant", "no-call", "--limit", "2", "--out", str(run)]
    assert CliRunner().invoke(app, args).exit_code == 0
    result = CliRunner().invoke(app, ["baselines", str(run)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "floor (no-call)" in out and "this run (no-call)" in out and "ceiling (oracle)" in out
    row = next(line for line in out.splitlines() if "│ similarity " in line)
    cells = [c.strip() for c in row.split("│") if c.strip()]
    assert cells == ["similarity", cells[1], cells[1], "1.000"]  # no-call is its own floor
    assert "0% of the way from the floor" in out
    assert "To evaluate a real model: toolplay run --suite quick --assistant openai:MODEL" in out
    assert f"HTML report: toolplay report {run}" in out
    assert not list(run.parent.glob("*floor*"))  # the baselines leave nothing behind


def test_baselines_of_a_folder_without_a_run_is_one_error_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["baselines", str(tmp_path)])
    assert result.exit_code == 2 and result.output.startswith("error:")


def test_the_command_name_is_what_was_typed_unless_it_is_on_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    script = tmp_path / "venv" / "bin" / "toolplay"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(script), "run"])
    monkeypatch.setenv("PATH", str(tmp_path))  # not on PATH: print the path as typed
    assert command_name() == str(script)
    monkeypatch.setenv("PATH", str(script.parent))  # on PATH: the bare name works
    assert command_name() == "toolplay"
    monkeypatch.setattr(sys, "argv", ["/x/toolplay/cli/__main__.py"])
    assert command_name() == "python -m toolplay.cli"


@pytest.mark.skipif(not TOOLPLAY.exists(), reason="no toolplay script beside this Python")
def test_the_printed_report_hint_works_as_printed_without_an_activated_venv(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "PATH": "/usr/bin:/bin", "COLUMNS": "200"}  # the venv is not on PATH
    run = tmp_path / "run"
    args = ["run", "--suite", "quick", "--assistant", "no-call", "--limit", "1", "--out", str(run)]
    done = subprocess.run(
        [str(TOOLPLAY), *args], env=env, capture_output=True, text=True, check=True
    )
    hint = next(line for line in done.stdout.splitlines() if line.startswith("HTML report: "))
    command = shlex.split(hint.removeprefix("HTML report: "))
    assert command[0] == str(TOOLPLAY)
    subprocess.run(command, env=env, capture_output=True, check=True)
    assert (run / "report.html").is_file()
