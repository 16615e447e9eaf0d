"""Faults a test endpoint can inject, by explicit script or by seeded rate.

A `FaultPlan` says what goes wrong: `script` lists the faults of the first requests in arrival
order (`None` = a normal answer), then each later request draws at most one fault from `rates`
with a generator seeded by `seed`. The draw for request *n* depends only on the seed and *n*, so
a soak test's fault mix is reproducible even when concurrent requests arrive in varying order.

Infrastructure faults pass on retry; a model fault (`malformed_arguments`) is an answer. With
`content_keyed`, draws follow the request instead of its arrival number: a model fault is drawn
from a hash of the body alone, so the same prompt always gets the same bad answer (as from a
model sampled at temperature 0) and a run with infrastructure faults and one without see
exactly the same model answers; an infrastructure fault is drawn from the hash and how many
times that body came before, so a retry draws afresh and the faults a run meets do not depend
on how its concurrent requests happened to interleave.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

Fault = Literal[
    "rate_limit",
    "server_error",
    "hang",
    "reset",
    "malformed_body",
    "malformed_arguments",
    "slow_body",
    "bad_encoding",
]
"""- `rate_limit`: HTTP 429 with `Retry-After`;
- `server_error`: HTTP 500;
- `hang`: no answer until `hang_seconds` pass, then the connection is closed;
- `reset`: the connection is reset (TCP RST) before any answer;
- `malformed_body`: HTTP 200 whose body is not JSON;
- `malformed_arguments`: a normal answer whose first tool call has unparseable arguments
  (a model fault the environment must report back, not an infrastructure fault);
- `slow_body`: HTTP 200 whose body trickles out over `hang_seconds`, each piece well within a
  per-read timeout (only a deadline on the whole call catches it);
- `bad_encoding`: HTTP 200 declaring `Content-Encoding: gzip` over a body that is not gzip."""

FAULTS: tuple[Fault, ...] = get_args(Fault)
MODEL_FAULTS: tuple[Fault, ...] = ("malformed_arguments",)
"""Faults in what the model says rather than in how it is reached."""
INFRASTRUCTURE_FAULTS: tuple[Fault, ...] = tuple(f for f in FAULTS if f not in MODEL_FAULTS)


def request_digest(request: Any) -> str:
    """A stable hash of a request body (key order does not matter)."""
    text = json.dumps(request, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class FaultPlan:
    """Which faults to inject and how often.

    Attributes:
        rates: Probability of each fault per request (after `script`); they must sum to ≤ 1.
        seed: Seeds the draws.
        script: Faults of the first requests, in arrival order (`None`: answer normally).
        retry_after: Seconds sent in `Retry-After` with a 429.
        hang_seconds: How long a hanging request stalls before its connection is closed
            (and how long a `slow_body` takes to arrive).
        content_keyed: Draw faults from the request body (and, for infrastructure faults, its
            repetition), not the request number.
    """

    rates: Mapping[Fault, float] = field(default_factory=dict)
    seed: int = 0
    script: Sequence[Fault | None] = ()
    retry_after: float = 0.05
    hang_seconds: float = 30.0
    content_keyed: bool = False

    def __post_init__(self) -> None:
        unknown = [name for name in [*self.rates, *self.script] if name and name not in FAULTS]
        if unknown:
            raise ValueError(f"unknown fault(s) {unknown}; known: {', '.join(FAULTS)}")
        if any(not 0.0 <= rate <= 1.0 for rate in self.rates.values()):
            raise ValueError("fault rates must lie in [0, 1]")
        if sum(self.rates.values()) > 1.0 + 1e-9:
            raise ValueError(f"fault rates sum to {sum(self.rates.values())}, more than 1")

    def fault_for(self, number: int, request: Any = None, repeat: int = 0) -> Fault | None:
        """The fault of request `number` (0-based arrival order) with body `request`.

        With `content_keyed`, an infrastructure fault is drawn from the body and `repeat` (how
        many earlier requests had the same body) and, if none is, a model fault from the body
        alone: a model fault then hits `(1 - sum of infrastructure rates) * rate` of requests.
        """
        if number < len(self.script):
            return self.script[number]
        if not self.content_keyed:
            return self._pick(random.Random(f"{self.seed}:{number}").random(), FAULTS)
        digest = request_digest(request)
        by_attempt = random.Random(f"{self.seed}:{digest}:{repeat}").random()
        fault = self._pick(by_attempt, INFRASTRUCTURE_FAULTS)
        if fault is None:
            by_content = random.Random(f"{self.seed}:body:{digest}").random()
            fault = self._pick(by_content, MODEL_FAULTS)
        return fault

    def _pick(self, draw: float, names: Sequence[Fault]) -> Fault | None:
        total = 0.0
        for name in names:
            total += self.rates.get(name, 0.0)
            if draw < total:
                return name
        return None


class FaultCounter:
    """Numbers requests in arrival order (thread-safe) and tells each one its fault."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self._next = 0
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()

    def next(self, request: Any = None) -> tuple[int, Fault | None]:
        """The next request's number and its fault (`request`: the body, for keyed draws)."""
        repeat = 0
        with self._lock:
            number = self._next
            self._next += 1
            if self.plan.content_keyed:
                digest = request_digest(request)
                repeat = self._seen.get(digest, 0)
                self._seen[digest] = repeat + 1
        return number, self.plan.fault_for(number, request, repeat)
