"""A run of the `toolsandbox` suite through the CLI: the reference's requests on the wire, the
presentation recorded, and each departure from the paper's setup warned and in the summary."""

from __future__ import annotations

import json
from pathlib import Path

from support import load_suite, run_on_endpoint
from toolplay.methods.toolsandbox._shown import reference_data
from toolplay.testing import ChatServer, ReferenceResponder


def test_a_run_sends_the_references_requests_and_records_its_departures(tmp_path: Path) -> None:
    suite = load_suite("toolsandbox")
    with ChatServer(ReferenceResponder(suite.scenarios)) as server:
        code, output, summary = run_on_endpoint(
            server.base_url,
            tmp_path / "run",
            "--suite",
            "toolsandbox",
            "--user",
            "openai:ref",
            "--augment",
            "none",
            "--limit",
            "2",
        )
        bodies = [r.body for r in server.requests]
    assert code == 0, output
    assert summary["presentation"] == "toolsandbox"
    assert summary["departures"] == [
        "the simulated user is openai:ref; the paper's is openai:gpt-4o-2024-05-13"
    ]
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert config["presentation"] == "toolsandbox"
    agent = [b for b in bodies if b["messages"][0]["content"].startswith("Don't make assumptions")]
    user = [b for b in bodies if b not in agent]
    assert agent and user
    assert all(list(b) == ["messages", "model", "tools"] for b in agent)
    functions = reference_data().functions["none"]
    assert all(t["function"] == functions[t["function"]["name"]] for b in agent for t in b["tools"])
    assert all("temperature" not in b for b in bodies)


def test_the_scripted_user_is_a_departure(tmp_path: Path) -> None:
    with ChatServer(ReferenceResponder(load_suite("toolsandbox").scenarios)) as server:
        code, output, summary = run_on_endpoint(
            server.base_url, tmp_path / "run", "--suite", "toolsandbox", "--limit", "1"
        )
    assert code == 0, output
    assert len(summary["departures"]) == 1 and "scripted user" in summary["departures"][0]
