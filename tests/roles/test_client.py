"""Reading completions, the cache key, and the cache in front of a backend."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolplay.clients import (
    ChatClient,
    RetryPolicy,
    TransientError,
    parse_completion,
    request_key,
)
from toolplay.roles import InfrastructureError

FAST = RetryPolicy(max_retries=2, initial=0.001, max_wait=0.01, jitter=0.0)


def body(message: dict[str, Any], usage: Any = None) -> dict[str, Any]:
    return {"choices": [{"message": message}], "usage": usage}


def test_tool_calls_keep_raw_argument_text_and_get_deterministic_ids() -> None:
    reply = parse_completion(
        body(
            {
                "content": None,
                "tool_calls": [
                    {"id": "a", "function": {"name": "f", "arguments": '{"x": 1'}},
                    {"function": {"name": "g", "arguments": {"y": [1, 2]}}},
                    {"id": "a", "function": {"name": "h"}},
                ],
            },
            {"prompt_tokens": 12, "completion_tokens": 3},
        ),
        first_call_number=7,
    )
    assert [(c.id, c.name, c.arguments) for c in reply.tool_calls] == [
        ("a", "f", '{"x": 1'),
        ("call_8", "g", '{"y": [1, 2]}'),
        ("call_9", "h", ""),
    ]
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.calls) == (
        12,
        3,
        1,
    )


def test_content_parts_are_joined_and_missing_usage_counts_one_call() -> None:
    reply = parse_completion(body({"content": [{"type": "text", "text": "a"}, {"text": "b"}]}))
    assert reply.content == "ab" and reply.usage.calls == 1 and reply.usage.prompt_tokens == 0


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"choices": []},
        {"choices": [1]},
        {"choices": [{"message": "x"}]},
        {"choices": [{"message": {"tool_calls": "x"}}]},
        {"choices": [{"message": {"tool_calls": [3]}}]},
    ],
)
def test_unusable_bodies_are_transient(bad: Any) -> None:
    with pytest.raises(TransientError, match="malformed response"):
        parse_completion(bad)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(json_values)
def test_any_json_either_parses_or_is_a_transient_error(value: Any) -> None:
    for candidate in (value, {"choices": [{"message": value}]}):
        with contextlib.suppress(TransientError):
            parse_completion(candidate)


@given(st.dictionaries(st.text(max_size=5), st.integers(), max_size=6), st.integers(0, 5))
def test_request_key_ignores_key_order_but_not_content_or_trial(
    request: dict[str, int], trial: int
) -> None:
    shuffled = dict(reversed(list(request.items())))
    assert request_key("e", request, trial) == request_key("e", shuffled, trial)
    assert request_key("e", request, trial) != request_key("e", request, trial + 1)
    assert request_key("e", request, trial) != request_key("other", request, trial)
    assert request_key("e", request, trial) != request_key("e", {**request, "extra": 1}, trial)


class CountingBackend:
    endpoint = "test://backend"

    def __init__(self, *outcomes: Any) -> None:
        self.outcomes = list(outcomes)
        self.calls = 0

    async def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        outcome = self.outcomes[min(self.calls, len(self.outcomes) - 1)]
        self.calls += 1
        if isinstance(outcome, Exception):
            raise outcome
        return dict(outcome)

    async def aclose(self) -> None:
        pass


class DictCache:
    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def put(self, key: str, response: str) -> None:
        self.data[key] = response


def test_cache_serves_a_repeated_request_without_calling_the_backend() -> None:
    backend = CountingBackend(body({"content": "hello"}))
    cache = DictCache()
    client = ChatClient(backend, policy=FAST, cache=cache)
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}

    async def go() -> list[str | None]:
        first = await client.complete(request)
        second = await client.complete(json.loads(json.dumps(request)))
        third = await client.complete(request, trial=1)
        return [first.content, second.content, third.content]

    assert asyncio.run(go()) == ["hello"] * 3
    assert backend.calls == 2  # trial 1 is a different sample, so it is not served from trial 0
    assert len(cache.data) == 2


def test_unreadable_cache_entries_are_refetched_and_failures_are_not_cached() -> None:
    backend = CountingBackend(TransientError("500"), body({"content": "ok"}))
    cache = DictCache()
    client = ChatClient(backend, policy=FAST, cache=cache)
    request = {"model": "m", "messages": []}
    cache.data[request_key(backend.endpoint, request, 0)] = "{not json"
    assert asyncio.run(client.complete(request)).content == "ok"
    assert backend.calls == 2
    assert json.loads(next(iter(cache.data.values())))["choices"][0]["message"]["content"] == "ok"


def test_a_malformed_body_is_retried_then_reported_as_infrastructure() -> None:
    backend = CountingBackend({"unexpected": True})
    client = ChatClient(backend, policy=FAST, what="m at url")
    with pytest.raises(InfrastructureError, match="m at url: failed after 3 attempt"):
        asyncio.run(client.complete({"model": "m"}))
    assert backend.calls == 3
