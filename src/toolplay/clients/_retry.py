"""Retrying model calls: exponential backoff with jitter, honouring `Retry-After`.

Only faults that may pass are retried: rate limits (429), server errors (5xx, 408), timeouts,
dropped connections and unparseable response bodies (`TransientError`). A refusal that will not
change on retry (401 bad key, 404 unknown model, 400 bad request) is a `PermanentError` and
fails at once. Either way, when no attempt succeeds the caller gets an `InfrastructureError`
naming the cause, which ends the scenario as an infrastructure error: it is stored, listed and
retried on resume, and never scored as the assistant's failure. Any other exception from an
attempt (a transport library's odd error, a bug) is an `InfrastructureError` too, unretried;
only an `AssistantError` a backend raises on purpose (e.g. a local model's context overflow)
passes through as the assistant's own failure.

A plain loop rather than tenacity: its per-call machinery (retry state, callbacks, wrapped
coroutines) cost about 0.2 ms of CPU on every call, retried or not, which matters when the
harness's CPU per model call is the ceiling on throughput (`bench/bench_call_cpu.py`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from toolplay.faults import AssistantError, InfrastructureError

logger = logging.getLogger(__name__)
T = TypeVar("T")


class TransientError(Exception):
    """A model call failed in a way a later attempt may not (rate limit, 5xx, timeout...)."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PermanentError(Exception):
    """A model call was refused in a way retrying cannot fix (bad key, unknown model...)."""


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry.

    Attributes:
        max_retries: Attempts after the first one.
        initial: First backoff in seconds; it doubles after every failure.
        max_wait: Longest backoff between two attempts.
        jitter: Up to this many random seconds are added to every backoff.
        max_retry_after: A server's `Retry-After` is honoured up to this many seconds.
    """

    max_retries: int = 5
    initial: float = 0.5
    max_wait: float = 30.0
    jitter: float = 0.5
    max_retry_after: float = 60.0

    def wait(self, attempt_number: int, error: BaseException | None = None) -> float:
        """Seconds to sleep after attempt `attempt_number` (from 1) failed with `error`.

        The backoff, or longer if the server asked for it (`Retry-After`).
        """
        exponent = max(0, attempt_number - 1)
        backoff = min(self.max_wait, self.initial * 2.0**exponent)
        backoff += random.uniform(0.0, self.jitter) if self.jitter > 0 else 0.0
        if isinstance(error, TransientError) and error.retry_after is not None:
            return max(backoff, min(error.retry_after, self.max_retry_after))
        return backoff


async def call_with_retries(
    policy: RetryPolicy, attempt: Callable[[], Awaitable[T]], what: str
) -> T:
    """Run `attempt` under `policy`; turn a final failure into `InfrastructureError`.

    Args:
        policy: The retry policy.
        attempt: Makes one call; raises `TransientError` or `PermanentError` on failure.
        what: Names the call in error messages, e.g. `openai:gpt-4o at http://...`.

    Raises:
        InfrastructureError: Every attempt failed, or one failed permanently.
    """
    tries = policy.max_retries + 1
    number = 0
    try:
        while True:
            number += 1
            try:
                return await attempt()
            except TransientError as exc:
                if number >= tries:
                    raise
                sleep = policy.wait(number, exc)
                logger.warning(
                    "%s: attempt %d failed (%s); retrying in %.2fs", what, number, exc, sleep
                )
            await asyncio.sleep(sleep)
    except TransientError as exc:
        raise InfrastructureError(f"{what}: failed after {tries} attempt(s): {exc}") from exc
    except PermanentError as exc:
        raise InfrastructureError(f"{what}: {exc}") from exc
    except (InfrastructureError, AssistantError):
        raise
    except Exception as exc:  # a transport or harness bug says nothing about the assistant
        logger.warning("%s: unexpected %s", what, type(exc).__name__, exc_info=True)
        raise InfrastructureError(f"{what}: unexpected {type(exc).__name__}: {exc}") from exc
