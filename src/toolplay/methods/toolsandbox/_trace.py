"""Read a recorded trajectory the way milestone constraints need it.

`TraceView` pairs every tool-result message with the call that produced it (real tool name,
parsed arguments with the tool's defaults filled in, as the reference records them, result or
error), shows an assistant's calls as the reference's bus holds
them (`call_texts`), and gives each table's snapshot after any message index
as a multiset of canonical rows, with a version number that only changes when the table does,
so constraint values can be cached per version instead of per message.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolplay.messages import Message, ToolCall, Trajectory
from toolplay.methods.toolsandbox._calltext import call_text
from toolplay.scenarios import SETTERS
from toolplay.tools import Registry
from toolplay.world import World


@dataclass(frozen=True)
class ToolTrace:
    """One executed call as seen at its result message."""

    tool: str
    """Real tool name (after any renaming augmentation)."""
    arguments: Mapping[str, Any] | None
    """Parsed arguments; None when the assistant's argument text was not a JSON object."""
    result: Any
    error: str | None

    @property
    def ok(self) -> bool:
        """True when the call succeeded."""
        return self.error is None


@dataclass(frozen=True)
class Snapshot:
    """A table at one version: its rows and their canonical multiset."""

    rows: tuple[Mapping[str, Any], ...]
    counts: Counter[str]
    by_key: Mapping[str, Mapping[str, Any]]

    def minus(self, other: Snapshot) -> list[Mapping[str, Any]]:
        """Rows of this snapshot not in `other` (multiset difference)."""
        rest = self.counts - other.counts
        return [self.by_key[key] for key in sorted(rest) for _ in range(rest[key])]

    def within(self, other: Snapshot) -> bool:
        """Whether every row of this snapshot is in `other` (multiset inclusion)."""
        return not (self.counts - other.counts)


def _current(tool: str, arguments: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """Arguments as today's tools name them.

    A run recorded before the settings setters took `on` passed `enabled`; re-scoring it must
    read the same call.
    """
    old = arguments is not None and "enabled" in arguments and "on" not in arguments
    if arguments is not None and old and tool in SETTERS:
        return {("on" if k == "enabled" else k): v for k, v in arguments.items()}
    return arguments


def _canonical(row: Mapping[str, Any]) -> str:
    return json.dumps(dict(row), sort_keys=True, default=str, separators=(",", ":"))


def call_defaults(registry: Registry | None) -> Callable[[str], Mapping[str, Any]]:
    """Per tool, the default of each argument that has one other than None.

    The reference records a call's arguments with the signature's defaults filled in (so a
    milestone on `days: 0` matches a call that left `days` out); None defaults are left out, as
    a missing argument already reads as None.
    """
    found: dict[str, Mapping[str, Any]] = {}

    def defaults(tool: str) -> Mapping[str, Any]:
        if tool not in found:
            fields = registry[tool].arguments.model_fields if registry and tool in registry else {}
            found[tool] = {
                name: info.default
                for name, info in fields.items()
                if not info.is_required() and info.default is not None
            }
        return found[tool]

    return defaults


class TraceView:
    """Messages, tool traces and table snapshots of one trajectory over its rebuilt world."""

    def __init__(self, trajectory: Trajectory, world: World, registry: Registry | None = None):
        """Read `trajectory` over its rebuilt `world` (`registry`: for argument defaults)."""
        defaults = call_defaults(registry)
        self.messages: list[Message] = list(trajectory.messages)
        self._trajectory = trajectory
        self._call_texts: dict[int, tuple[str, ...]] = {}
        self.size = len(self.messages)
        self.world = world
        self.traces: dict[int, ToolTrace] = {}
        calls: dict[str, ToolCall] = {}
        for message in self.messages:
            for call in message.tool_calls:
                calls[call.id] = call
            if message.is_tool_result and message.sender == "environment":
                found = calls.get(message.tool_call_id or "")
                shown = found.name if found is not None else ""
                tool = message.tool_name or trajectory.real_tool_name(shown)
                arguments = _current(tool, found.parsed_arguments()) if found else None
                self.traces[message.index] = ToolTrace(
                    tool=tool,
                    arguments=None if arguments is None else {**defaults(tool), **arguments},
                    result=message.result,
                    error=message.error,
                )
        self._changes: dict[str, list[int]] = {}
        for change in trajectory.changes:
            self._changes.setdefault(change.table, []).append(change.index)
        self._snapshots: dict[tuple[str, int], Snapshot] = {}
        self._points = sorted({i for indices in self._changes.values() for i in indices})

    def version(self, table: str, index: int) -> int:
        """A number identifying the table's content after message `index` (-1: initial)."""
        return bisect.bisect_right(self._changes.get(table, []), index)

    def change_points(self) -> list[int]:
        """Sorted message indices at which some table changed (the world's versions)."""
        return self._points

    def world_version(self, index: int) -> int:
        """A number identifying the whole world after message `index` (-1: initial)."""
        return bisect.bisect_right(self._points, index)

    def snapshot(self, table: str, index: int) -> Snapshot:
        """The table after message `index` (-1: the initial world)."""
        key = (table, self.version(table, index))
        found = self._snapshots.get(key)
        if found is None:
            rows = self.world.state_at(index).rows(table)
            canonical = [_canonical(row) for row in rows]
            found = Snapshot(rows, Counter(canonical), dict(zip(canonical, rows, strict=True)))
            self._snapshots[key] = found
        return found

    def call_texts(self, index: int) -> tuple[str, ...]:
        """The reference's bus text of each tool call of message `index` (see `_calltext`)."""
        found = self._call_texts.get(index)
        if found is None:
            calls = self.messages[index].tool_calls
            found = tuple(call_text(c, self._trajectory.real_tool_name(c.name)) for c in calls)
            self._call_texts[index] = found
        return found

    def trace(self, index: int) -> ToolTrace | None:
        """The tool call whose result is message `index`, if it is one."""
        return self.traces.get(index)
