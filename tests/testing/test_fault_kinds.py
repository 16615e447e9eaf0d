"""The fault kinds added for the soak: trickling and undecodable bodies, content-keyed model
faults, and a reference responder that recovers from its own malformed arguments."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import pytest

from support import load_suite
from toolplay.clients import (
    HttpChatBackend,
    TransientError,
)
from toolplay.testing import (
    ChatServer,
    FaultCounter,
    FaultPlan,
    ReferenceResponder,
    break_arguments,
    scripted,
)
from toolplay.testing import text as text_answer

REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


def call(server: ChatServer, timeout: float) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        backend = HttpChatBackend(server.base_url, None, timeout=timeout)
        try:
            return await backend.complete(REQUEST)
        finally:
            await backend.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize(
    ("fault", "match"),
    [
        ("slow_body", r"no answer within 0\.3s"),
        ("bad_encoding", "bad response: .*content-encoding"),
    ],
)
def test_new_faults_reach_the_client_as_transient_errors(fault: str, match: str) -> None:
    plan = FaultPlan(script=[fault], hang_seconds=3)  # type: ignore[list-item]
    with ChatServer(scripted([text_answer("ok")]), faults=plan) as server:
        started = time.monotonic()
        with pytest.raises(TransientError, match=match):
            call(server, timeout=0.3)
        assert time.monotonic() - started < 2.5  # the deadline, not the trickle, ended it
        assert call(server, timeout=5)["choices"]


def test_a_slow_body_within_the_deadline_is_an_answer() -> None:
    plan = FaultPlan(script=["slow_body"], hang_seconds=0.2)
    with ChatServer(scripted([text_answer("ok")]), faults=plan) as server:
        body = call(server, timeout=5)
    assert body["choices"][0]["message"]["content"] == "ok"


def test_content_keyed_faults_follow_the_request_not_its_arrival() -> None:
    plan = FaultPlan(rates={"malformed_arguments": 0.3, "reset": 0.2}, seed=4, content_keyed=True)
    bodies = [{"messages": [{"role": "user", "content": str(i)}]} for i in range(300)]
    for body in bodies[:20]:  # the arrival number plays no part
        assert len({plan.fault_for(n, body, 3) for n in range(10)}) == 1
    # A retry (the same body again) draws its infrastructure fault afresh ...
    resets = Counter(plan.fault_for(0, bodies[0], repeat) for repeat in range(2000))
    assert 300 < resets["reset"] < 500  # 0.2 of 2000
    # ... but the model's answer to a body is always the same when it gets through.
    for body in bodies[:40]:
        answers = {plan.fault_for(0, body, r) for r in range(30)} - {"reset"}
        assert len(answers) == 1
    model = [b for b in bodies if plan.fault_for(0, b, 0) == "malformed_arguments"]
    assert 50 < len(model) < 110  # 0.8 * 0.3 of 300, give or take
    counter = FaultCounter(plan)
    assert [counter.next(bodies[5])[1] for _ in range(6)] == [
        plan.fault_for(0, bodies[5], r) for r in range(6)
    ]


@pytest.mark.parametrize("parallel", [False, True])
def test_the_reference_responder_sends_a_broken_call_again(parallel: bool) -> None:
    scenario = next(s for s in load_suite("quick").scenarios if s.id == "quick_text_contact")
    responder = ReferenceResponder([scenario], parallel=parallel)
    messages: list[dict[str, Any]] = [{"role": "user", "content": scenario.script[0]}]
    first = responder({"messages": messages})
    broken = break_arguments(first)
    messages.append({"role": "assistant", "content": None, "tool_calls": broken["tool_calls"]})
    again = responder({"messages": messages})
    resent = [c["function"] for c in again["tool_calls"]]
    assert resent[0] == first["tool_calls"][0]["function"]  # the broken call, as intended
    if parallel:  # only the broken one: the others went through
        assert len(resent) == 1
