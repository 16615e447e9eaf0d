"""The execution environment: runs an assistant message's tool calls against the world.

Parallel calls in one message run one after another in an order where every call that reads a
table runs before the calls that write it (a stable topological order of the read/write
conflicts; ties and cycles keep the assistant's order). A race such as "turn cellular on" ∥
"send a message" therefore surfaces as the failure it would be on a real device, without trying
all N! orders as the ToolSandbox reference does.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolplay.messages import ToolCall
from toolplay.scenarios import CallExecutor
from toolplay.tools import Registry, ToolOutcome, ToolPresentation
from toolplay.world import World


def execution_order(calls: Sequence[ToolCall], registry: Registry) -> list[int]:
    """Positions of `calls` in the order they must run (readers before writers).

    Call `a` must run before call `b` when `a` reads a table `b` writes and `b` reads nothing
    `a` writes (a one-way conflict). Mutual conflicts (both read what the other writes) set no
    order. Among the calls free to run, the assistant's order decides; if one-way conflicts form
    a cycle, the earliest call with the fewest unmet predecessors goes first.
    """

    def access(call: ToolCall) -> tuple[frozenset[str], frozenset[str]]:
        spec = registry.tools.get(call.name)
        return (spec.meta.reads, spec.meta.writes) if spec else (frozenset(), frozenset())

    accesses = [access(call) for call in calls]
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
        if self.executor is not None:
            self.world.index = index
            real = self.presentation.real_name(call.name)
            if real is not None and real != call.name:
                call = call.model_copy(update={"name": real})
            return self.executor.execute(self.world, call)
        real = self.presentation.real_name(call.name)
        if real is None:
            shown = ", ".join(self.presentation.names) or "none"
            return ToolOutcome(
                error=f"Unknown tool {call.name!r}. Available tools: {shown}.",
                error_type="unknown_tool",
            )
        self.world.index = index
        return self.registry.execute(self.world, call.model_copy(update={"name": real}))

    def order(self, calls: Sequence[ToolCall]) -> list[int]:
        """Execution order of parallel `calls` (see `execution_order`)."""
        resolved = [
            call.model_copy(update={"name": self.presentation.real_name(call.name) or ""})
            for call in calls
        ]
        return execution_order(resolved, self.registry)
