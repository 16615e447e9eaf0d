"""toolplay sends what the ToolSandbox reference sends, byte for byte, over real HTTP.

`data/reference_requests.jsonl.gz` holds conversations played by the reference's own agent and
user simulator with canned answers (`scripts/toolsandbox_export/capture_requests.py`: every
setting, several ways of playing toolplay's solutions). Here the same answers come from two
local endpoints (one for the assistant, one for the simulated user), toolplay plays the same
scenario under the `toolsandbox` presentation, and every request body it sends must equal the
reference's bytes; ids the tools create (random uuid4s in the reference, seeded in toolplay)
are compared by position, and a polars predicate's memory address (it varies run to run in the
reference itself) is masked. Where the reference ended the conversation with an exception
(malformed arguments, an unknown tool, a crash of its own), toolplay reports the error to the
assistant and goes on (design: not reproduced): only the reference's requests are compared.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import support
from support import CATALOG, load_suite
from toolplay.clients import ModelOptions
from toolplay.testing import ChatServer

FIXTURE = Path(__file__).parent / "data" / "reference_requests.jsonl.gz"
MODEL = "gpt-4o-2024-05-13"
NAME = "toolsandbox"
FALLBACK = {"role": "assistant", "content": "Is there anything else I can help you with?"}
END = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {
            "id": "call_end",
            "type": "function",
            "function": {"name": "end_conversation", "arguments": "{}"},
        }
    ],
}
UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
ADDRESS = re.compile(r" at 0x[0-9A-Fa-f]+>")


def conversations() -> list[dict[str, Any]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f][1:]


CONVERSATIONS = conversations()


def masked(body: str) -> str:
    seen: dict[str, str] = {}
    body = UUID4.sub(lambda m: seen.setdefault(m.group(0), f"<id{len(seen)}>"), body)
    return ADDRESS.sub(" at 0x?>", body)


class Replies:
    """Answers a role's requests with a conversation's canned replies, then `after`."""

    def __init__(self, after: dict[str, Any]) -> None:
        self.after = after
        self.pending: list[dict[str, Any]] = []

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.pending.pop(0) if self.pending else self.after


@pytest.fixture(scope="module")
def endpoints() -> Iterator[dict[str, tuple[ChatServer, Replies]]]:
    """One local endpoint for the assistant and one for the simulated user."""
    agent, user = Replies(FALLBACK), Replies(END)
    with ChatServer(agent) as agent_server, ChatServer(user) as user_server:
        yield {"agent": (agent_server, agent), "user": (user_server, user)}


@pytest.fixture(scope="module")
def scenarios():  # type: ignore[no-untyped-def]
    return {s.id: s for s in load_suite("toolsandbox").scenarios}


@pytest.mark.parametrize(
    "conversation",
    CONVERSATIONS,
    ids=[f"{c['setting']}/{c['variant']}/{c['base']}" for c in CONVERSATIONS],
)
def test_every_request_is_the_references(  # type: ignore[no-untyped-def]
    scenarios, endpoints, conversation: dict[str, Any]
) -> None:
    setting, base = conversation["setting"], conversation["base"]
    scenario = scenarios[base if setting == "none" else f"{base}@{setting}"]
    presentation = CATALOG.presentation(NAME)
    roles = {}
    for role, (server, replies) in endpoints.items():
        server.requests.clear()
        replies.pending = [r["reply"] for r in conversation["requests"] if r["role"] == role]
        roles[role] = ModelOptions(base_url=server.base_url)
    assistant = CATALOG.build_assistant(
        f"openai:{MODEL}", roles["agent"], presentation=presentation
    )
    user = CATALOG.build_user(f"openai:{MODEL}", roles["user"], presentation=presentation)

    async def play() -> Any:
        try:
            return await support.play("dynamic", scenario, assistant, user, presentation=NAME)
        finally:
            for role in (assistant, user):
                await role.aclose()  # type: ignore[attr-defined]

    trajectory = asyncio.run(play())
    sent = {
        role: [r.raw.decode("utf-8") for r in server.requests]
        for role, (server, _) in endpoints.items()
    }
    counts = {"agent": 0, "user": 0}
    for request in conversation["requests"]:
        role = request["role"]
        ours = sent[role][counts[role]] if counts[role] < len(sent[role]) else None
        counts[role] += 1
        assert ours is not None, f"toolplay sent no {role} request {request['n']}"
        assert masked(ours) == masked(request["body_raw"]), (
            f"{role} request {request['n']} differs; toolplay sent:\n{ours}"
        )
    if conversation["exception"] is None:  # the reference went to the end: so did toolplay
        assert counts == {role: len(sent[role]) for role in sent}, trajectory.termination
