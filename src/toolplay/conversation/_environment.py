"""The execution environment: runs an assistant message's tool calls against the world.

Parallel calls in one message run one after another. In which order is the presentation's
choice (`ToolPresentation.parallel`):

- `readers_first` (toolplay's): every call that reads a table runs before the calls that write
  it (a stable topological order of the read/write conflicts; ties and cycles keep the
  assistant's order). A race such as "turn cellular on" ∥ "send a message" therefore surfaces
  as the failure it would be on a real device, without trying all N! orders as the ToolSandbox
  reference does.
- `first_failing_order` (the ToolSandbox reference's outcome): the reference runs every
  permutation of the calls, in `itertools.permutations` order starting from the assistant's
  own, each on a copy of the world, and keeps the first one in which a call fails (its results
  in that order, and its world), else the assistant's order. The same outcome without the
  factorial in the common case: calls that touch no common table (by their declared reads and
  writes) give the same results in every order, so their order is the assistant's; otherwise
  the permutations are searched depth first on forks of the world, a failing prefix ends the
  search (its first completion is the answer), and a prefix whose world and remaining calls
  were already seen to fail nowhere is not searched again. Only when every order succeeds and
  each one leaves a different world is the search as long as the reference's; past
  `MAX_TRIAL_CALLS` calls tried, the assistant's order is kept (logged).

A presentation may also refuse a call before it runs (`ToolPresentation.check`, e.g. a
reference's own argument binding).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from toolplay.messages import ToolCall
from toolplay.scenarios import CallExecutor
from toolplay.tools import Registry, ToolOutcome, ToolPresentation
from toolplay.world import World

logger = logging.getLogger(__name__)

MAX_TRIAL_CALLS = 20_000
"""Calls `first_failing_order` may try out on forks before it keeps the assistant's order."""


def execution_order(calls: Sequence[ToolCall], registry: Registry) -> list[int]:
    """Positions of `calls` in the order they must run (readers before writers).

    Call `a` must run before call `b` when `a` reads a table `b` writes and `b` reads nothing
    `a` writes (a one-way conflict). Mutual conflicts (both read what the other writes) set no
    order. Among the calls free to run, the assistant's order decides; if one-way conflicts form
    a cycle, the earliest call with the fewest unmet predecessors goes first.
    """
    accesses = [_access(call, registry) for call in calls]
    count = len(calls)
    before = [
        {
            a
            for a in range(count)
            if a != b and accesses[a][0] & accesses[b][1] and not accesses[b][0] & accesses[a][1]
        }
        for b in range(count)
    ]
    remaining = list(range(count))
    order: list[int] = []
    while remaining:
        ready = min(remaining, key=lambda b: (len(before[b] & set(remaining)), b))
        order.append(ready)
        remaining.remove(ready)
    return order


def _access(call: ToolCall, registry: Registry) -> tuple[frozenset[str], frozenset[str]]:
    spec = registry.tools.get(call.name)
    return (spec.meta.reads, spec.meta.writes) if spec else (frozenset(), frozenset())


def commute(calls: Sequence[ToolCall], registry: Registry) -> bool:
    """Whether no call writes a table another one reads or writes (any order, same results)."""
    accesses = [_access(call, registry) for call in calls]
    for a, (_, writes) in enumerate(accesses):
        for b, (reads, other_writes) in enumerate(accesses):
            if a != b and writes & (reads | other_writes):
                return False
    return True


def first_failing_order(
    count: int, world: World, run: Callable[[World, int], bool], limit: int = MAX_TRIAL_CALLS
) -> list[int] | None:
    """The first order (in `itertools.permutations` order of `range(count)`) in which a call
    fails, trying calls out on forks of `world`; None when every order succeeds, or when more
    than `limit` calls would have to be tried (module docstring).

    Args:
        count: How many calls.
        world: The world before the calls (never changed).
        run: Runs call `position` on the given world; True when it failed.
        limit: The most calls tried.
    """
    clean: set[tuple[frozenset[int], str]] = set()
    tried = 0

    class _Limit(Exception):
        pass

    def search(state: World, prefix: list[int], remaining: frozenset[int]) -> list[int] | None:
        nonlocal tried
        if not remaining:
            return None
        key = (remaining, state.fingerprint())
        if key in clean:
            return None
        for position in sorted(remaining):
            tried += 1
            if tried > limit:
                raise _Limit
            trial = state.fork()
            rest = remaining - {position}
            if run(trial, position):
                return [*prefix, position, *sorted(rest)]
            found = search(trial, [*prefix, position], rest)
            if found is not None:
                return found
        clean.add(key)
        return None

    try:
        return search(world, [], frozenset(range(count)))
    except _Limit:
        logger.warning(
            "%d parallel calls: more than %d tried out; keeping the assistant's order",
            count,
            limit,
        )
        return None


class Environment:
    """Executes calls for one conversation; owns the world and the offered tools.

    Calls arrive under the names the assistant was shown; `presentation` maps them to the real
    tools. A name that was not shown is an unknown tool; every tool that was shown runs,
    distraction tools included (as in the reference, where an offered distractor is a real
    tool), so `registry` holds every tool the world can run and the presentation gates it.
    An `executor` (a reference presentation's) runs every call itself instead (a shown name
    mapped to its tool, any other name as given: the executor decides what an unknown name
    is).
    """

    def __init__(
        self,
        world: World,
        registry: Registry,
        presentation: ToolPresentation | None = None,
        executor: CallExecutor | None = None,
    ) -> None:
        self.world = world
        self.registry = registry
        self.presentation = presentation or ToolPresentation.plain(registry)
        self.executor = executor

    def execute(self, call: ToolCall, index: int) -> ToolOutcome:
        """Run one call, recording world changes against message `index`."""
        self.world.index = index
        return self._run(self.world, call)

    def _run(self, world: World, call: ToolCall) -> ToolOutcome:
        if self.executor is not None:
            real = self.presentation.real_name(call.name)
            if real is not None and real != call.name:
                call = call.model_copy(update={"name": real})
            return self.executor.execute(world, call)
        real = self.presentation.real_name(call.name)
        if real is None:
            shown = ", ".join(self.presentation.names) or "none"
            return ToolOutcome(
                error=f"Unknown tool {call.name!r}. Available tools: {shown}.",
                error_type="unknown_tool",
                code="unknown_tool",
                fields={"name": call.name},
            )
        if self.presentation.check is not None:
            refused = self.presentation.check(real, call)
            if refused is not None:
                return refused
        return self.registry.execute(world, call.model_copy(update={"name": real}))

    def order(self, calls: Sequence[ToolCall]) -> list[int]:
        """Execution order of parallel `calls` (module docstring)."""
        resolved = [
            call.model_copy(update={"name": self.presentation.real_name(call.name) or ""})
            for call in calls
        ]
        if self.presentation.parallel == "readers_first":
            return execution_order(resolved, self.registry)
        natural = list(range(len(calls)))
        if len(calls) < 2 or commute(resolved, self.registry):
            return natural
        found = first_failing_order(
            len(calls), self.world, lambda world, i: not self._run(world, calls[i]).ok
        )
        return natural if found is None else found
