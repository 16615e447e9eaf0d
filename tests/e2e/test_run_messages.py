"""Issue 14: what a run tells the person watching it.

The first exception of a `python:` assistant (item 5; its traceback with `--debug`), retry
warnings in one format (item 14), a run served from the response cache says so beside the
token count (item 14).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from support import load_suite
from toolplay.cli import app
from toolplay.testing import ChatServer, FaultPlan, ReferenceResponder

from .conftest import ToolplayProcess

AGENT = """
def broken(messages, tools):
    return helper(messages)

def helper(messages):
    raise KeyError("agent bug in helper")
"""
FAST = ["--option", "retry_initial=0.001", "--option", "retry_jitter=0"]


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "K": "k"})
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "buggy_agent.py").write_text(textwrap.dedent(AGENT))
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.fixture()
def server() -> Iterator[ChatServer]:
    with ChatServer(ReferenceResponder(load_suite("quick").scenarios)) as running:
        yield running


def test_the_first_error_of_a_python_assistant_is_printed(agent: Path) -> None:
    code, out, err = invoke(
        "run", "--assistant", "python:buggy_agent:broken", "--out", str(agent / "a")
    )
    assert code == 0, out + err  # the assistant's failure is scored, not an infrastructure error
    lines = [line for line in err.splitlines() if "agent bug" in line]
    assert lines == [
        "warning: python:buggy_agent:broken raised KeyError('agent bug in helper') in "
        "quick_add_contact trial 0 (its first failure; such scenarios end as assistant_error; "
        "toolplay --debug shows the traceback)"
    ]
    assert "Traceback" not in err
    code, out, err = invoke(
        "--debug", "run", "--assistant", "python:buggy_agent:broken", "--out", str(agent / "b")
    )
    assert code == 0
    assert "Traceback (most recent call last)" in err
    assert 'buggy_agent.py", line 6, in helper' in err


def test_retry_warnings_have_one_format(server: ChatServer, tmp_path: Path) -> None:
    server.set_faults(FaultPlan(script=["rate_limit", "server_error", "reset"], retry_after=0.01))
    args = ["run", "--assistant", "openai:ref", "--base-url", server.base_url, "--limit", "1"]
    code, out, err = invoke(*args, "--api-key-env", "K", "--out", str(tmp_path / "r"), *FAST)
    assert code == 0, out + err
    retries = [line for line in err.splitlines() if "attempt" in line]
    assert len(retries) == 3, err
    pattern = r"warning: openai:ref at http://127\.0\.0\.1:\d+/v1: attempt [123] failed \(.+\); "
    pattern += r"retrying in \d+\.\d\ds"
    assert all(re.fullmatch(pattern, line) for line in retries), retries


def test_a_run_served_from_the_cache_says_so(server: ChatServer, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache.sqlite")
    args = ["run", "--assistant", "openai:ref", "--base-url", server.base_url, "--limit", "2"]
    args += ["--api-key-env", "K", "--cache", cache]
    code, out, err = invoke(*args, "--out", str(tmp_path / "first"))
    assert code == 0, out + err
    assert "served from the response cache" not in out
    calls = len(server.requests)
    code, out, err = invoke(*args, "--out", str(tmp_path / "second"))
    assert code == 0, out + err
    assert len(server.requests) == calls  # nothing was asked again
    token_line = next(i for i, line in enumerate(out.splitlines()) if line.startswith("tokens:"))
    note = out.splitlines()[token_line + 1 :]
    assert any(
        f"served from the response cache: {calls} of {calls} model call(s) (no new tokens spent"
        in line
        for line in note
    ), out


def test_each_retry_prints_one_line_in_a_real_process(
    server: ChatServer, tmp_path: Path, toolplay_process: ToolplayProcess
) -> None:
    """Scoring with ROUGE lets absl call `logging.basicConfig()` (a handler on the root
    logger); the retries after it still print once, as toolplay's `warning:` line only."""
    server.set_faults(FaultPlan(rates={"server_error": 0.3}, seed=3))
    args = ["run", "--assistant", "openai:ref", "--base-url", server.base_url, "--concurrency"]
    args += ["1", "--api-key-env", "K", "--out", str(tmp_path / "r"), *FAST]
    result = toolplay_process(*args, cwd=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    retries = [line for line in result.stderr.splitlines() if "attempt" in line]
    failed = sum(1 for request in server.requests if request.fault == "server_error")
    assert failed >= 3 and len(retries) == failed, result.stderr
    assert all(line.startswith("warning: openai:ref at ") for line in retries), retries
