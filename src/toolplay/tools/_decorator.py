"""The `@tool` decorator: it only records metadata; schemas are derived by the registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

ToolKind = Literal["action", "read"]

F = TypeVar("F", bound=Callable[..., Any])

TOOL_ATTRIBUTE = "__toolplay_tool__"


@dataclass(frozen=True)
class ToolMeta:
    """What a tool declares about itself."""

    kind: ToolKind
    reads: frozenset[str]
    writes: frozenset[str]
    requires_session: bool
    name: str | None = None


def tool(
    *,
    kind: ToolKind,
    reads: set[str] | frozenset[str] = frozenset(),
    writes: set[str] | frozenset[str] = frozenset(),
    requires_session: bool = False,
    name: str | None = None,
) -> Callable[[F], F]:
    """Mark a typed, documented function as a tool.

    Args:
        kind: "action" if the tool changes the world, "read" otherwise.
        reads: World tables the tool reads (the pseudo-table "session" included).
        writes: World tables the tool writes.
        requires_session: Refuse the call unless the session has a logged-in user.
        name: Name shown to the assistant; defaults to the function name.
    """
    meta = ToolMeta(kind, frozenset(reads), frozenset(writes), requires_session, name)

    def mark(function: F) -> F:
        setattr(function, TOOL_ATTRIBUTE, meta)
        return function

    return mark


def tool_meta(function: Callable[..., Any]) -> ToolMeta | None:
    """The metadata attached by `@tool`, or None."""
    meta = getattr(function, TOOL_ATTRIBUTE, None)
    return meta if isinstance(meta, ToolMeta) else None
