"""Retry policy: what is retried, how long it waits, and what the caller finally sees."""

from __future__ import annotations

import asyncio

import pytest

from toolplay.clients import (
    PermanentError,
    RetryPolicy,
    TransientError,
)
from toolplay.clients._retry import call_with_retries
from toolplay.roles import AssistantError, InfrastructureError

FAST = RetryPolicy(max_retries=3, initial=0.001, max_wait=0.01, jitter=0.0)


def run_attempts(outcomes: list[Exception | str], policy: RetryPolicy = FAST) -> tuple[str, int]:
    calls = 0

    async def attempt() -> str:
        nonlocal calls
        outcome = outcomes[min(calls, len(outcomes) - 1)]
        calls += 1
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    result = asyncio.run(call_with_retries(policy, attempt, "test model"))
    return result, calls


def test_transient_failures_are_retried_until_success() -> None:
    result, calls = run_attempts([TransientError("429"), TransientError("500"), "ok"])
    assert (result, calls) == ("ok", 3)


def test_exhausted_retries_become_an_infrastructure_error_naming_the_cause() -> None:
    with pytest.raises(InfrastructureError, match=r"test model: failed after 4 attempt\(s\): 503"):
        run_attempts([TransientError("503")])


def test_permanent_failures_are_not_retried() -> None:
    calls = 0

    async def attempt() -> str:
        nonlocal calls
        calls += 1
        raise PermanentError("HTTP 401: bad key")

    with pytest.raises(InfrastructureError, match="HTTP 401"):
        asyncio.run(call_with_retries(FAST, attempt, "m"))
    assert calls == 1


def test_other_exceptions_are_infrastructure_errors_unretried() -> None:
    # A transport library's odd exception or a bug is not the assistant's failure.
    calls = 0

    async def attempt() -> str:
        nonlocal calls
        calls += 1
        raise ZeroDivisionError("boom")

    with pytest.raises(InfrastructureError, match="m: unexpected ZeroDivisionError: boom"):
        asyncio.run(call_with_retries(FAST, attempt, "m"))
    assert calls == 1


def test_an_assistant_error_passes_through_as_the_assistants_failure() -> None:
    with pytest.raises(AssistantError, match="context"):
        run_attempts([AssistantError("context window exceeded")])


def test_backoff_grows_exponentially_and_is_capped() -> None:
    policy = RetryPolicy(initial=0.5, max_wait=3.0, jitter=0.0)
    waits = [policy.wait(n, TransientError("x")) for n in range(1, 6)]
    assert waits == [0.5, 1.0, 2.0, 3.0, 3.0]


def test_retry_after_is_honoured_but_capped() -> None:
    policy = RetryPolicy(initial=0.1, jitter=0.0, max_retry_after=5.0)
    assert policy.wait(1, TransientError("429", retry_after=2.0)) == 2.0
    assert policy.wait(1, TransientError("429", retry_after=999.0)) == 5.0
    # a short Retry-After never shortens the backoff
    assert policy.wait(3, TransientError("429", retry_after=0.0)) == 0.4


def test_jitter_adds_at_most_its_bound() -> None:
    policy = RetryPolicy(initial=1.0, max_wait=10.0, jitter=0.5)
    waits = [policy.wait(1, TransientError("x")) for _ in range(50)]
    assert all(1.0 <= w <= 1.5 for w in waits) and len(set(waits)) > 1
