"""The test endpoint: routes, auth, latency, and every injectable fault, seen by a real client."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import httpx
import pytest

from support import load_suite
from toolplay.clients import (
    HttpChatBackend,
    PermanentError,
    TransientError,
)
from toolplay.testing import (
    ChatServer,
    FaultPlan,
    ReferenceResponder,
    break_arguments,
    scripted,
    text,
    tool_calls,
)

REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


def call(server: ChatServer, timeout: float = 5.0) -> dict[str, object]:
    async def go() -> dict[str, object]:
        backend = HttpChatBackend(server.base_url, "k", timeout=timeout)
        try:
            return await backend.complete(REQUEST)
        finally:
            await backend.aclose()

    return asyncio.run(go())


def test_answers_wrap_the_responder_message_with_usage() -> None:
    with ChatServer(scripted([text("hello")])) as server:
        body = call(server)
        assert httpx.get(f"{server.base_url}/models").json()["data"][0]["id"] == "test"
        assert httpx.post(f"{server.base_url}/nope", json={}).status_code == 404
    choice = body["choices"][0]  # type: ignore[index]
    assert choice["message"] == {"role": "assistant", "content": "hello"}
    assert choice["finish_reason"] == "stop" and body["usage"]["prompt_tokens"] > 0  # type: ignore[index]
    assert server.requests[0].authorization == "Bearer k" and server.requests[0].body == REQUEST


def test_a_wrong_key_is_refused() -> None:
    with (
        ChatServer(scripted([text("x")]), api_key="right") as server,
        pytest.raises(PermanentError, match="HTTP 401"),
    ):
        call(server)


@pytest.mark.parametrize(
    ("fault", "match"),
    [
        ("rate_limit", "HTTP 429"),
        ("server_error", "HTTP 500"),
        ("reset", "connection failed"),
        ("malformed_body", "malformed JSON body"),
        ("hang", "no answer within 0.3s"),
    ],
)
def test_each_fault_reaches_the_client_as_a_transient_error(fault: str, match: str) -> None:
    plan = FaultPlan(script=[fault], retry_after=1.5, hang_seconds=5)  # type: ignore[list-item]
    with ChatServer(scripted([text("ok")]), faults=plan) as server:
        with pytest.raises(TransientError, match=match) as caught:
            call(server, timeout=0.3)
        assert call(server)["choices"]  # the next request is answered normally
    if fault == "rate_limit":
        assert caught.value.retry_after == 1.5


def test_malformed_arguments_break_the_first_call_only() -> None:
    message = tool_calls(("f", {"a": 1}), ("g", {}))
    broken = break_arguments(message)
    assert broken["tool_calls"][0]["function"]["arguments"] == '{"broken": "unterminated'
    assert broken["tool_calls"][1] == message["tool_calls"][1]
    assert break_arguments(text("hi"))["tool_calls"][0]["function"]["arguments"].startswith("{")


def test_fault_draws_are_seeded_by_request_number_and_follow_the_rates() -> None:
    plan = FaultPlan(rates={"rate_limit": 0.2, "server_error": 0.1}, seed=7)
    draws = [plan.fault_for(n) for n in range(4000)]
    assert draws == [FaultPlan(rates=plan.rates, seed=7).fault_for(n) for n in range(4000)]
    assert draws != [FaultPlan(rates=plan.rates, seed=8).fault_for(n) for n in range(4000)]
    counts = Counter(draws)
    assert abs(counts["rate_limit"] / 4000 - 0.2) < 0.03
    assert abs(counts["server_error"] / 4000 - 0.1) < 0.03
    scripted_plan = FaultPlan(script=[None, "reset"], rates={"hang": 1.0})
    assert [scripted_plan.fault_for(n) for n in range(3)] == [None, "reset", "hang"]


def test_bad_plans_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown fault"):
        FaultPlan(rates={"meteor": 0.1})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="sum to"):
        FaultPlan(rates={"reset": 0.7, "hang": 0.7})


def test_latency_overlaps_across_concurrent_requests() -> None:
    with ChatServer(scripted([text("ok")]), latency=0.2) as server:

        async def many() -> float:
            backend = HttpChatBackend(server.base_url, None, timeout=5)
            start = time.perf_counter()
            await asyncio.gather(*(backend.complete(REQUEST) for _ in range(20)))
            elapsed = time.perf_counter() - start
            await backend.aclose()
            return elapsed

        elapsed = asyncio.run(many())
    assert elapsed < 0.2 * 20 / 4  # far from serial; exact speed is the benchmark's business


def test_reference_responder_plays_assistant_and_user_sides() -> None:
    scenario = next(s for s in load_suite("quick").scenarios if s.id == "quick_update_number")
    responder = ReferenceResponder([scenario])
    first = [{"role": "user", "content": scenario.script[0]}]
    assert responder({"messages": first})["content"] == scenario.reference[0].reply
    second = [
        *first,
        {"role": "assistant", "content": "?"},
        {"role": "user", "content": scenario.script[1]},
    ]
    assert responder({"messages": second})["tool_calls"][0]["function"]["name"] == "search_contacts"
    user_view: dict[str, Any] = {
        "tools": [{"function": {"name": "end_conversation"}}],
        "messages": [{"role": "assistant", "content": scenario.script[0]}],
    }
    assert responder(user_view)["content"] == scenario.script[1]
    user_view["messages"].append({"role": "assistant", "content": scenario.script[1]})
    assert responder(user_view)["tool_calls"][0]["function"]["name"] == "end_conversation"
    parallel = ReferenceResponder([scenario], parallel=True)({"messages": second})
    assert [c["function"]["name"] for c in parallel["tool_calls"]] == [
        "search_contacts",
        "modify_contact",
    ]
