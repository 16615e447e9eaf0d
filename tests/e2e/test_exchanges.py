"""Each model answer keeps what the model was really sent and said (issue 14 item 11).

Endpoints: the request body exactly as the server received it and the response body; never the
key (it travels in a header only). The response cache marks answers it served. The option
`record_exchanges=false` keeps runs small by recording nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support import load_suite, run_on_endpoint, trajectory_lines
from toolplay.messages import EXCHANGE_FORMAT, expand_exchanges
from toolplay.testing import ChatServer, ReferenceResponder

QUICK = load_suite("quick").scenarios
SECRET = "sk-exchange-test-never-recorded"


@pytest.fixture()
def server() -> Iterator[ChatServer]:
    with ChatServer(ReferenceResponder(QUICK), api_key=SECRET) as running:
        yield running


def run(server: ChatServer, out: Path, *args: str) -> list[dict[str, Any]]:
    """Play the first quick scenario against the server; its assistant messages."""
    code, output, _ = run_on_endpoint(
        server.base_url,
        out,
        "--api-key-env",
        "TOOLPLAY_EXCHANGE_KEY",
        "--limit",
        "1",
        *args,
        env={"TOOLPLAY_EXCHANGE_KEY": SECRET},
    )
    assert code == 0, output
    lines = trajectory_lines(out, QUICK[0].id)
    header = lines[0]
    messages = [line for line in lines if line["type"] == "message"]
    stored = [m for m in messages if m["sender"] == "assistant" and m.get("exchange")]
    if stored:  # format 2: each request holds only what the previous one did not
        assert header["exchange_format"] == EXCHANGE_FORMAT
        assert all(m["exchange"]["prefix"] > 0 for m in stored[1:])
    whole = expand_exchanges({**header, "messages": messages})["messages"]
    return [m for m in whole if m["sender"] == "assistant"]


def test_endpoint_answers_keep_the_request_and_response_as_exchanged(
    server: ChatServer, tmp_path: Path
) -> None:
    cache = tmp_path / "cache.sqlite"
    answers = run(server, tmp_path / "run", "--cache", str(cache))
    assert len(answers) == len(server.requests) >= 2
    for answer, received in zip(answers, server.requests, strict=True):
        exchange = answer["exchange"]
        assert exchange["request"] == received.body  # the body exactly as the server got it
        assert exchange["response"]["choices"][0]["message"]["role"] == "assistant"
        assert exchange["prompt"] is None and exchange["cached"] is False
    last = answers[-1]["exchange"]["response"]["choices"][0]["message"]
    assert last["content"] == answers[-1]["content"]
    for path in (tmp_path / "run").rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    # The same run again from the cache: the same exchanges, marked as served from it.
    again = run(server, tmp_path / "again", "--cache", str(cache))
    assert len(server.requests) == len(answers)  # no new call reached the server
    assert [a["exchange"]["request"] for a in again] == [a["exchange"]["request"] for a in answers]
    assert all(a["exchange"]["cached"] for a in again)


def test_recording_can_be_turned_off(server: ChatServer, tmp_path: Path) -> None:
    answers = run(server, tmp_path / "run", "--option", "record_exchanges=false")
    assert answers and all(a.get("exchange") is None for a in answers)
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert config["assistant_model"]["record_exchanges"] is False
