"""Faults a test endpoint can inject, by explicit script or by seeded rate.

A `FaultPlan` says what goes wrong: `script` lists the faults of the first requests in arrival
order (`None` = a normal answer), then each later request draws at most one fault from `rates`
with a generator seeded by `seed`. The draw for request *n* depends only on the seed and *n*, so
a soak test's fault mix is reproducible even when concurrent requests arrive in varying order.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

Fault = Literal[
    "rate_limit",
    "server_error",
    "hang",
    "reset",
    "malformed_body",
    "malformed_arguments",
]
"""- `rate_limit`: HTTP 429 with `Retry-After`;
- `server_error`: HTTP 500;
- `hang`: no answer until `hang_seconds` pass, then the connection is closed;
- `reset`: the connection is reset (TCP RST) before any answer;
- `malformed_body`: HTTP 200 whose body is not JSON;
- `malformed_arguments`: a normal answer whose first tool call has unparseable arguments
  (a model fault the environment must report back, not an infrastructure fault)."""

FAULTS: tuple[Fault, ...] = get_args(Fault)


@dataclass(frozen=True)
class FaultPlan:
    """Which faults to inject and how often.

    Attributes:
        rates: Probability of each fault per request (after `script`); they must sum to ≤ 1.
        seed: Seeds the draws.
        script: Faults of the first requests, in arrival order (`None`: answer normally).
        retry_after: Seconds sent in `Retry-After` with a 429.
        hang_seconds: How long a hanging request stalls before its connection is closed.
    """

    rates: Mapping[Fault, float] = field(default_factory=dict)
    seed: int = 0
    script: Sequence[Fault | None] = ()
    retry_after: float = 0.05
    hang_seconds: float = 30.0

    def __post_init__(self) -> None:
        unknown = [name for name in [*self.rates, *self.script] if name and name not in FAULTS]
        if unknown:
            raise ValueError(f"unknown fault(s) {unknown}; known: {', '.join(FAULTS)}")
        if any(not 0.0 <= rate <= 1.0 for rate in self.rates.values()):
            raise ValueError("fault rates must lie in [0, 1]")
        if sum(self.rates.values()) > 1.0 + 1e-9:
            raise ValueError(f"fault rates sum to {sum(self.rates.values())}, more than 1")

    def fault_for(self, number: int) -> Fault | None:
        """The fault of request `number` (0-based arrival order)."""
        if number < len(self.script):
            return self.script[number]
        draw = random.Random(f"{self.seed}:{number}").random()
        total = 0.0
        for name in FAULTS:
            total += self.rates.get(name, 0.0)
            if draw < total:
                return name
        return None


class FaultCounter:
    """Numbers requests in arrival order (thread-safe) and tells each one its fault."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self._next = 0
        self._lock = threading.Lock()

    def next(self) -> tuple[int, Fault | None]:
        """The next request's number and fault."""
        with self._lock:
            number = self._next
            self._next += 1
        return number, self.plan.fault_for(number)
