"""The scenario trial a model call belongs to, carried by a context variable.

One role object serves every concurrently played scenario, so per-conversation facts cannot live
on it. The runner enters `trial_scope(trial)` around each play; asyncio copies the context into
each task, so a role reads the right trial even with many conversations in flight. Roles use it
to vary the sampling seed and to key the response cache, so K trials of a scenario are K samples
rather than one cached answer repeated K times.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_TRIAL: ContextVar[int] = ContextVar("toolplay_trial", default=0)


def current_trial() -> int:
    """The trial of the conversation being played (0 outside any scope)."""
    return _TRIAL.get()


@contextmanager
def trial_scope(trial: int) -> Iterator[None]:
    """Mark model calls made inside the block as belonging to `trial`."""
    token = _TRIAL.set(trial)
    try:
        yield
    finally:
        _TRIAL.reset(token)
