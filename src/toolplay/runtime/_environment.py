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
from toolplay.tools import Registry, ToolOutcome, ToolPresentation
from toolplay.world import World


def execution_order(calls: Sequence[ToolCall], registry: Registry) -> list[int]:
    """Positions of `calls` in the order they must run (readers before writers).

    A call waits while another pending call reads a table it writes. When every pending call
    waits (a cycle, e.g. two calls that both read and write settings), the earliest goes first.
    """

    def access(call: ToolCall) -> tuple[frozenset[str], frozenset[str]]:
        spec = registry.tools.get(call.name)
        return (spec.meta.reads, spec.meta.writes) if spec else (frozenset(), frozenset())

    accesses = [access(call) for call in calls]
    remaining = list(range(len(calls)))
    order: list[int] = []
    while remaining:

        def waits(i: int) -> bool:
            return any(j != i and accesses[j][0] & accesses[i][1] for j in remaining)

        ready = next((i for i in remaining if not waits(i)), remaining[0])
        order.append(ready)
        remaining.remove(ready)
    return order


class Environment:
    """Executes calls for one conversation; owns the world and the offered tools.

    Calls arrive under the names the assistant was shown; `presentation` maps them to the real
    tools. A name that was not shown is an unknown tool.
    """

    def __init__(
        self, world: World, registry: Registry, presentation: ToolPresentation | None = None
    ) -> None:
        self.world = world
        self.registry = registry
        self.presentation = presentation or ToolPresentation.plain(registry)

    def execute(self, call: ToolCall, index: int) -> ToolOutcome:
        """Run one call, recording world changes against message `index`."""
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
