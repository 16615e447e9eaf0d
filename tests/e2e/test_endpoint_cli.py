"""`toolplay run` against an OpenAI-compatible server on 127.0.0.1, through the CLI.

Covers tool calls, parallel calls, malformed arguments, 429/500 answers, timeouts, an
unreachable endpoint, a model-driven user, and the API key never reaching the disk or the logs.
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from support import load_suite, run_on_endpoint, trajectory_lines
from toolplay.cli import app
from toolplay.testing import (
    ChatServer,
    FaultPlan,
    ReferenceResponder,
)

QUICK = load_suite("quick").scenarios
SECRET = "sk-test-5f1c9e-never-on-disk"
FAST = ["--option", "retry_initial=0.001", "--option", "retry_jitter=0", "--max-retries", "2"]


def invoke(server: ChatServer, out: Path, *args: str) -> tuple[int, str, dict[str, Any]]:
    return run_on_endpoint(
        server.base_url,
        out,
        "--api-key-env",
        "TOOLPLAY_TEST_KEY",
        *FAST,
        *args,
        env={"TOOLPLAY_TEST_KEY": SECRET},
    )


def trajectory(out: Path, scenario_id: str) -> list[dict[str, Any]]:
    return trajectory_lines(out, scenario_id)


@pytest.fixture()
def server() -> Iterator[ChatServer]:
    with ChatServer(ReferenceResponder(QUICK), api_key=SECRET) as running:
        yield running


def test_tool_calls_are_executed_and_scored(server: ChatServer, tmp_path: Path) -> None:
    code, output, summary = invoke(server, tmp_path / "run")
    assert code == 0, output
    assert summary["completed"] == 5 and summary["errors"] == 0
    assert summary["metrics"]["similarity"] == 1.0
    assert all(r.authorization == f"Bearer {SECRET}" for r in server.requests)
    first = server.requests[0].body
    assert first["model"] == "ref" and first["messages"][0]["role"] == "system"
    assert {t["type"] for t in first["tools"]} == {"function"}
    assert summary["usage"]["calls"] == len(server.requests)


def test_parallel_calls_in_one_message(tmp_path: Path) -> None:
    with ChatServer(ReferenceResponder(QUICK, parallel=True)) as server:
        code, output, _ = invoke(server, tmp_path / "run", "--limit", "2")
    assert code == 0, output
    records = trajectory(tmp_path / "run", "quick_text_contact")
    messages = [r for r in records if r["type"] == "message"]
    calling = next(m for m in messages if m["tool_calls"])
    assert [c["name"] for c in calling["tool_calls"]] == [
        "search_contacts",
        "send_message_with_phone_number",
    ]
    answered = [m["tool_call_id"] for m in messages if m["tool_call_id"]]
    assert sorted(answered) == sorted(c["id"] for c in calling["tool_calls"])
    assert records[-1]["type"] == "score" and records[-1]["score"] == 1.0


def test_malformed_arguments_go_back_to_the_model(server: ChatServer, tmp_path: Path) -> None:
    server.set_faults(FaultPlan(script=["malformed_arguments"]))
    code, output, summary = invoke(server, tmp_path / "run", "--limit", "1")
    assert code == 0, output
    assert summary["errors"] == 0 and summary["completed"] == 1
    messages = [r for r in trajectory(tmp_path / "run", QUICK[0].id) if r["type"] == "message"]
    result = next(m for m in messages if m["tool_call_id"])
    assert result["error_type"] == "malformed_arguments"
    assert "not valid JSON" in result["error"]
    follow_up = server.requests[1].body["messages"]
    assert follow_up[-1]["role"] == "tool" and follow_up[-1]["content"].startswith("Error:")


def test_rate_limits_are_waited_out(server: ChatServer, tmp_path: Path) -> None:
    server.set_faults(FaultPlan(script=["rate_limit", "rate_limit"], retry_after=0.05))
    code, output, summary = invoke(server, tmp_path / "run", "--limit", "1")
    assert code == 0, output
    assert summary["errors"] == 0 and summary["metrics"]["similarity"] == 1.0
    assert server.fault_counts()["rate_limit"] == 2


@pytest.mark.parametrize(
    ("plan", "extra", "cause"),
    [
        (FaultPlan(rates={"server_error": 1.0}), [], "HTTP 500"),
        (FaultPlan(rates={"hang": 1.0}, hang_seconds=5), ["--timeout", "0.3"], "no answer within"),
        (FaultPlan(rates={"reset": 1.0}), [], "connection failed"),
        (FaultPlan(rates={"malformed_body": 1.0}), [], "malformed JSON body"),
    ],
)
def test_persistent_faults_end_as_listed_unscored_errors(
    server: ChatServer, tmp_path: Path, plan: FaultPlan, extra: list[str], cause: str
) -> None:
    server.set_faults(plan)
    code, output, summary = invoke(server, tmp_path / "run", "--limit", "1", *extra)
    assert code == 3, output  # finished with infrastructure errors
    assert summary["completed"] == 0 and summary["errors"] == 1
    assert summary["termination"] == {"infrastructure_error": 1}
    assert "failed after 3 attempt(s)" in summary["error_list"][0]["error"]
    assert cause in summary["error_list"][0]["error"]
    assert len(server.requests) == 3  # first try + 2 retries
    assert "error" in output.lower()


def test_an_unreachable_endpoint_is_an_infrastructure_error(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--assistant",
            "openai:x",
            "--base-url",
            f"http://127.0.0.1:{port}/v1",
            "--out",
            str(tmp_path / "run"),
            "--limit",
            "1",
            *FAST,
        ],
    )
    assert result.exit_code == 3, result.output  # infrastructure errors
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["errors"] == 1 and "connection failed" in summary["error_list"][0]["error"]


def test_a_model_driven_user_is_recorded_with_its_settings(
    server: ChatServer, tmp_path: Path
) -> None:
    code, output, summary = invoke(
        server,
        tmp_path / "run",
        "--user",
        "openai:sim",
        "--user-temperature",
        "0.3",
        "--limit",
        "3",
    )
    assert code == 0, output
    assert summary["termination"] == {"user_ended": 3}
    assert summary["user"] == "openai:sim"
    assert summary["user_settings"] == {
        "name": "openai:sim",
        "kind": "openai",
        "model": "sim",
        "base_url": server.base_url,
        "api_key_env": "TOOLPLAY_TEST_KEY",
        "temperature": 0.3,
        "seed": None,
        "max_tokens": None,
    }
    assert summary["assistant_settings"]["temperature"] == 0.0
    header = trajectory(tmp_path / "run", QUICK[0].id)[0]
    assert header["user"] == "openai:sim" and header["roles"]["user"]["temperature"] == 0.3


def test_the_api_key_is_never_written_or_logged(
    server: ChatServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    server.set_faults(FaultPlan(script=["rate_limit", "server_error"]))
    cache = tmp_path / "cache.sqlite"
    toolplay_logs = logging.getLogger("toolplay")  # the CLI stops them from reaching the root
    toolplay_logs.addHandler(caplog.handler)
    try:
        code, output, _ = invoke(
            server, tmp_path / "run", "--user", "openai:sim", "--cache", str(cache), "--limit", "2"
        )
    finally:
        toolplay_logs.removeHandler(caplog.handler)
    assert any(r.name.startswith("toolplay.") for r in caplog.records)  # the retry warnings
    assert code == 0, output
    assert any(r.authorization == f"Bearer {SECRET}" for r in server.requests)  # it was used
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "run.sqlite" for p in files) and cache in files
    for path in files:
        assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in output
    assert SECRET not in caplog.text and caplog.text  # logs were captured, without the key


def test_malformed_extra_options_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["run", "--out", str(tmp_path / "run"), "--option", "no-equals-sign"]
    )
    assert result.exit_code == 2 and "KEY=VALUE" in result.output
    assert not (tmp_path / "run").exists()
