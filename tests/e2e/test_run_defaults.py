"""Issue 14, runs: the default run folder, `--resume` alone, exit statuses, a keyless remote
endpoint refused before any call."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from support import drain_terminal
from toolplay.cli import app

AGENT = """
from toolplay.roles import InfrastructureError

def flaky(messages, tools, context):
    if context.scenario_id == "quick_wifi_on":
        raise InfrastructureError("backend down")
    return "Sorry, I cannot help."
"""


def invoke(*args: str, env: dict[str, str | None] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_each_plain_run_gets_its_own_folder_and_prints_it(here: Path) -> None:
    for n in (1, 2):
        code, out, err = invoke("run", "--limit", "1")
        assert code == 0, out + err
        assert f"run folder: runs/quick-oracle-{n}" in err
        assert f"Run written to runs/quick-oracle-{n}" in out
        assert (here / f"runs/quick-oracle-{n}/summary.json").is_file()
    code, out, err = invoke("run", "--limit", "1", "--assistant", "no-call", "--suite", "quick")
    assert code == 0 and "runs/quick-no-call-1" in err
    # --resume without --out continues the latest folder of that suite and assistant
    code, out, err = invoke("run", "--limit", "1", "--resume")
    assert code == 0 and "run folder: runs/quick-oracle-2" in err
    assert not (here / "runs/quick-oracle-3").exists()


def test_resume_alone_reuses_the_stored_configuration(here: Path) -> None:
    args = ["run", "--suite", "quick", "--assistant", "no-call", "--limit", "3", "--trials", "2"]
    code, out, err = invoke(*args, "--out", "r", "--option", "max_rounds=5")
    assert code == 0, out + err
    before = json.loads((here / "r/summary.json").read_text())
    code, out, err = invoke("run", "--resume", "--out", "r", "--concurrency", "3")
    assert code == 0, out + err
    after = json.loads((here / "r/summary.json").read_text())
    assert after == before and after["assistant"] == "no-call" and after["scenarios"] == 6
    config = json.loads((here / "r/config.json").read_text())
    assert config["trials"] == 2 and config["play"]["max_rounds"] == 5
    # an option given explicitly that differs is still refused, naming it
    code, out, err = invoke("run", "--resume", "--out", "r", "--assistant", "oracle")
    assert code == 2 and "assistant: stored 'no-call', now 'oracle'" in err
    code, out, err = invoke("run", "--resume", "--out", "r", "--option", "max_rounds=6")
    assert code == 2 and "max_rounds: stored 5, now 6" in err


def test_resume_on_a_folder_without_a_run_starts_it(here: Path) -> None:
    code, out, err = invoke("run", "--resume", "--out", "never-started", "--limit", "2")
    assert code == 0, out + err
    summary = json.loads((here / "never-started/summary.json").read_text())
    assert summary["scenarios"] == 2
    (here / "empty").mkdir()
    assert invoke("run", "--resume", "--out", "empty", "--limit", "1")[0] == 0


def test_infrastructure_errors_exit_3_and_say_how_to_replay(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (here / "flaky_agent.py").write_text(textwrap.dedent(AGENT))
    monkeypatch.syspath_prepend(str(here))
    code, out, err = invoke("run", "--assistant", "python:flaky_agent:flaky", "--out", "f")
    assert code == 3, out + err
    assert "1 scenario trial(s) ended in an infrastructure error" in err
    assert "toolplay run --resume --out f" in err
    assert json.loads((here / "f/summary.json").read_text())["errors"] == 1
    code, out, err = invoke("run", "--assistant", "no-call", "--out", "ok")
    assert code == 0, out + err


@pytest.mark.parametrize(
    "extra",
    [[], ["--base-url", "https://api.example.com/v1"], ["--api-key-env", "MY_UNSET_KEY"]],
)
def test_a_remote_endpoint_without_a_key_is_refused_before_any_call(
    here: Path, extra: list[str]
) -> None:
    env = {"OPENAI_API_KEY": None, "MY_UNSET_KEY": None}
    started = time.monotonic()
    code, out, err = invoke(
        "run", "--assistant", "openai:gpt-4o-mini", "--out", "k", *extra, env=env
    )
    assert code == 2 and time.monotonic() - started < 10
    variable = "MY_UNSET_KEY" if "--api-key-env" in extra else "OPENAI_API_KEY"
    assert f"--assistant: {variable} is not set" in err and "--api-key-env" in err
    assert not (here / "k").exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/v1",
        "http://localhost:8000/v1",
        "http://10.1.2.3/v1",
        "http://vllm:8000/v1",
    ],
)
def test_a_private_endpoint_needs_no_key(url: str) -> None:
    from support import build_assistant

    options = {"base_url": url, "api_key_env": "SURELY_UNSET_VARIABLE"}
    assert build_assistant("openai:m", options).name == "openai:m"


def test_a_terminal_sees_the_bar_move_with_rate_and_time_left(tmp_path: Path) -> None:
    # A process of its own: the console decides at start whether it may redraw (a terminal).
    leader, follower = pty.openpty()
    try:
        args = [sys.executable, "-m", "toolplay.cli", "run", "--suite", "sandbox"]
        args += ["--limit", "60", "--out", "out"]
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
        done = subprocess.run(
            args, cwd=tmp_path, env=env, stderr=follower, stdout=subprocess.DEVNULL, timeout=300
        )
        shown, text = drain_terminal(leader)
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 0
    counts = {int(m) for m in re.findall(r"(\d+)/60", text)}
    assert 60 in counts and len(counts) >= 2, text  # it moved, and it ended at 60
    assert re.search(r"\d+\.\d/s", text) and "left" in text
