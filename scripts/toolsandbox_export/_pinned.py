"""Build the reference's scenarios with the clock pinned to one fixed time.

The reference builds scenario times from `datetime.datetime.now()` (the wall clock, local time)
and shuffles tool lists with the global `random` (seeded with 42 by its CLI). The exporter runs
with TZ=UTC, seeds `random` with 42 as the CLI does, and replaces `datetime.datetime` by a
subclass whose `now()` is `PINNED` while the scenarios are built, so every exported time is
relative to one instant that is also the toolplay world's clock.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import random
import time
from collections.abc import Iterator
from typing import Any

PINNED = datetime.datetime(2024, 8, 14, 10, 0, 0)  # noqa: DTZ001 (the reference reads naive local time)
"""The instant the reference's wall clock reads during the export (naive, UTC)."""

SEED = 42
"""The reference CLI's `random.seed` before it builds the scenarios."""


class _PinnedDatetime(datetime.datetime):
    @classmethod
    def now(cls, tz: datetime.tzinfo | None = None) -> Any:  # type: ignore[override]
        moment = PINNED if tz is None else PINNED.replace(tzinfo=datetime.timezone.utc)
        return moment if tz is None else moment.astimezone(tz)


def build_scenarios() -> dict[str, Any]:
    """Every named reference scenario (1032), built at `PINNED` with seed `SEED`."""
    os.environ["TZ"] = "UTC"
    time.tzset()
    from tool_sandbox.common.tool_discovery import ToolBackend
    from tool_sandbox.scenarios import named_scenarios

    # A first build imports everything the build imports lazily (compiled modules refuse a
    # patched datetime type when they are imported under it).
    named_scenarios(preferred_tool_backend=ToolBackend.DEFAULT)
    random.seed(SEED)
    with pinned_clock():
        return dict(named_scenarios(preferred_tool_backend=ToolBackend.DEFAULT))


@contextlib.contextmanager
def pinned_clock() -> Iterator[None]:
    """The reference's wall clock reads `PINNED` inside the block (scenarios built, tools run)."""
    real = datetime.datetime
    datetime.datetime = _PinnedDatetime  # type: ignore[misc]
    try:
        yield
    finally:
        datetime.datetime = real  # type: ignore[misc]
