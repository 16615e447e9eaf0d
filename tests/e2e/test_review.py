"""`toolplay review --judge openai:MODEL` end to end against the project's own test endpoint.

One endpoint (`support.ChatbotUserEndpoint`) plays three parts: the assistant, a simulated
user that writes as an assistant would, and the judge, which tags that line (and answers in
prose, a malformed verdict kept as such, on the wifi scenario). The review is stored beside the
run, resumes without asking again, counts its agreement with the deterministic checks, and
shows in the report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from support import ChatbotUserEndpoint, load_suite, run_on_endpoint
from toolplay.cli import app
from toolplay.report._payload import unpack_payload
from toolplay.testing import ChatServer

QUICK = load_suite("quick").scenarios


@pytest.fixture()
def endpoint() -> Iterator[tuple[ChatServer, ChatbotUserEndpoint]]:
    parts = ChatbotUserEndpoint(QUICK)
    with ChatServer(parts) as server:
        yield server, parts


def review(server: ChatServer, run: Path, *extra: str) -> Any:
    args = ["review", str(run), "--judge", "openai:judge", "--base-url", server.base_url]
    return CliRunner().invoke(app, [*args, *extra], env={"COLUMNS": "200"})


def test_the_judge_reviews_a_run_against_the_test_endpoint(
    endpoint: tuple[ChatServer, ChatbotUserEndpoint], tmp_path: Path
) -> None:
    server, parts = endpoint
    run = tmp_path / "run"
    code, output, summary = run_on_endpoint(server.base_url, run, "--user", "openai:sim")
    assert code == 0, output
    # the deterministic checks already flag the chatbot line in every conversation
    assert summary["user_errors"]["by_kind"]["role_confusion"]["trials"] == 5

    result = review(server, run, "--cache", str(tmp_path / "cache.sqlite"))
    assert result.exit_code == 0, result.output
    folder = run / "reviews" / "openai-judge"
    stored = json.loads((folder / "review.json").read_text())
    assert stored["judge"] == "openai:judge" and stored["prompt_version"] == 1
    assert stored["judge_settings"]["model"] == "judge"
    assert stored["judge_settings"]["temperature"] == 0.0
    assert stored["reviewed"] == 5 and stored["malformed"] == 1 and stored["pending"] == 0
    assert stored["errors"] == 4 and stored["by_severity"]["hindered"] == 4
    assert stored["agreement"]["role_confusion"] == {"both": 4, "judge_only": 0, "checks_only": 0}
    verdicts = [json.loads(line) for line in (folder / "verdicts.jsonl").read_text().splitlines()]
    wifi = next(v for v in verdicts if v["scenario_id"] == "quick_wifi_on")
    assert wifi["status"] == "malformed" and wifi["raw"] == "The user seems fine to me."
    assert "expected one call to record_user_errors" in wifi["problem"]
    assert "judge openai:judge: 5 trial(s) reviewed, 1 malformed" in result.output

    # Resumable: nothing left to ask, so the endpoint is not called again.
    asked = len(parts.judged)
    again = review(server, run)
    assert again.exit_code == 0, again.output
    assert len(parts.judged) == asked

    # Shown in the report: the judge's panel and its verdicts in the viewer's data.
    assert CliRunner().invoke(app, ["report", str(run)]).exit_code == 0
    html = (run / "report.html").read_text()
    assert "Judge review: openai:judge" in html
    payload = json.loads(re.search(r'id="run-data"[^>]*>(.*?)</script>', html, re.S).group(1))
    entries = unpack_payload(payload)["entries"]
    judged = {e["id"]: e["judged"][0] for e in entries}
    assert judged["quick_wifi_on"]["status"] == "malformed"
    assert judged["quick_add_contact"]["errors"][0]["kind"] == "role_confusion"


def test_a_killed_review_resumes_with_what_it_lacks(
    endpoint: tuple[ChatServer, ChatbotUserEndpoint], tmp_path: Path
) -> None:
    server, parts = endpoint
    run = tmp_path / "run"
    code, output, _ = run_on_endpoint(server.base_url, run, "--user", "openai:sim")
    assert code == 0, output
    first = review(server, run, "--limit", "2")
    assert first.exit_code == 0, first.output
    verdicts = run / "reviews" / "openai-judge" / "verdicts.jsonl"
    lines = verdicts.read_text().splitlines(keepends=True)
    assert len(lines) == 2
    verdicts.write_text(lines[0] + lines[1][:20])  # a kill in the middle of the second line
    asked = len(parts.judged)
    second = review(server, run)
    assert second.exit_code == 0, second.output
    assert len(parts.judged) == asked + 4  # the cut verdict and the three never asked
    stored = [json.loads(line) for line in verdicts.read_text().splitlines()]
    assert len({(v["scenario_id"], v["trial"]) for v in stored}) == len(stored) == 5


def test_an_unknown_judge_is_refused_in_one_line(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert CliRunner().invoke(app, ["run", "--out", str(run)]).exit_code == 0
    result = CliRunner().invoke(app, ["review", str(run), "--judge", "gpt4"])
    assert result.exit_code == 2
    assert "error: --judge: unknown judge 'gpt4'" in result.output


def test_a_judge_that_keeps_failing_leaves_trials_pending(tmp_path: Path) -> None:
    parts = ChatbotUserEndpoint(QUICK)
    with ChatServer(parts) as server:
        run = tmp_path / "run"
        code, output, _ = run_on_endpoint(server.base_url, run, "--user", "openai:sim")
        assert code == 0, output
    down = ChatServer(parts).start()
    base_url = down.base_url
    down.stop()  # nothing listens there any more
    args = ["review", str(run), "--judge", "openai:judge", "--base-url", base_url]
    fast = ["--option", "max_retries=0", "--option", "retry_initial=0.001"]
    result = CliRunner().invoke(app, [*args, *fast], env={"COLUMNS": "200"})
    assert result.exit_code == 3, result.output
    stored = json.loads((run / "reviews" / "openai-judge" / "review.json").read_text())
    assert stored["reviewed"] == 0 and stored["pending"] == 5 and stored["failed"] == 5
