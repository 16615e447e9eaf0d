"""How tools are shown to the assistant: schemas and names, possibly transformed.

Augmentations (documentation removed, names scrambled, distraction tools, ...) change only
what the assistant is shown, never the tool functions. A presentation maps each shown name to
the real tool; the environment executes through that map, and a name that was not shown is an
unknown tool even if a real tool has it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolplay.tools._registry import Registry


@dataclass(frozen=True)
class ToolPresentation:
    """The tools as the assistant sees them."""

    schemas: tuple[dict[str, Any], ...]
    names: Mapping[str, str]
    """Shown name → real tool name."""

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
