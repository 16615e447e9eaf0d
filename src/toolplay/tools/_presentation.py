"""How tools are shown to the assistant: schemas and names, possibly transformed.

Augmentations (documentation removed, names scrambled, distraction tools, ...) change only
what the assistant is shown, never the tool functions. A presentation maps each shown name to
the real tool; the environment executes through that map, and a name that was not shown is an
unknown tool even if a real tool has it.

A method's reference presentation may also carry how its reference treats calls before they
reach the tools (`check`: e.g. its own argument binding, which refuses what toolplay's would
accept) and how it runs several calls of one message (`parallel`, see
`toolplay.conversation`'s environment).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from toolplay.messages import ToolCall
from toolplay.tools._registry import Registry, ToolOutcome

CallCheck = Callable[[str, ToolCall], ToolOutcome | None]
"""(real tool name, the call as the assistant made it) -> the failed outcome to report instead
of running the call, or None to run it."""

Parallel = Literal["readers_first", "first_failing_order"]
"""How the calls of one message run: `readers_first` (toolplay's: calls reading a table before
those writing it), `first_failing_order` (the ToolSandbox reference's outcome: the first order,
in `itertools.permutations` order from the assistant's own, in which a call fails, else the
assistant's order)."""


@dataclass(frozen=True)
class ToolPresentation:
    """The tools as the assistant sees them."""

    schemas: tuple[dict[str, Any], ...]
    names: Mapping[str, str]
    """Shown name → real tool name."""
    check: CallCheck | None = field(default=None, compare=False)
    """Checks a call before it runs (module docstring); None: every call runs."""
    parallel: Parallel = "readers_first"
    """How the calls of one message run (`Parallel`)."""

    @classmethod
    def plain(cls, registry: Registry) -> ToolPresentation:
        """Every tool of `registry`, unchanged."""
        return cls(tuple(registry.schemas()), {name: name for name in registry.names()})

    def real_name(self, shown: str) -> str | None:
        """The real tool behind a shown name, or None if no such tool was shown."""
        return self.names.get(shown)

    def copy_schemas(self) -> list[dict[str, Any]]:
        """Deep copies of the schemas, safe for a transformation to edit."""
        return copy.deepcopy(list(self.schemas))


Augmentation = Callable[[ToolPresentation, Registry], ToolPresentation]
"""Transforms a presentation; gets the full registry too (e.g. to add distraction tools)."""


def strip_descriptions(*, tools: bool, arguments: bool) -> Augmentation:
    """An augmentation removing tool and/or argument descriptions (names and types kept)."""

    def apply(presentation: ToolPresentation, registry: Registry) -> ToolPresentation:
        schemas = presentation.copy_schemas()
        for schema in schemas:
            function = schema["function"]
            if tools:
                function["description"] = ""
            if arguments:
                for prop in function["parameters"].get("properties", {}).values():
                    prop.pop("description", None)
        return ToolPresentation(tuple(schemas), presentation.names)

    return apply
