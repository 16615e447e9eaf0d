"""The response cache seen from the roles: a key for every request, a tiny store protocol.

A key covers everything that determines a response: the endpoint, the full request body
(model, messages, tools, sampling settings) and the trial, since K trials of one scenario must
be K samples, not one answer served K times. The API key is never part of it. The store behind
the protocol lives in `toolplay.runs` (a SQLite file given by `--cache`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Protocol


class ResponseCache(Protocol):
    """Where responses are kept between calls and runs (thread-safe)."""

    def get(self, key: str) -> str | None:
        """The cached response text for `key`, or None."""
        ...

    def put(self, key: str, response: str) -> None:
        """Remember `response` for `key`."""
        ...


def request_key(endpoint: str, request: dict[str, Any], trial: int) -> str:
    """A stable hash of everything that determines a response.

    Args:
        endpoint: Where the request goes (base URL, or the local model's identity).
        request: The full request body.
        trial: The trial the call belongs to.

    Returns:
        A hex SHA-256 digest, independent of dict key order.
    """
    canonical = json.dumps(
        {"endpoint": endpoint, "request": request, "trial": trial},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
