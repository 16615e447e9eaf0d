"""What loading and resolving scenarios needs from the catalog, passed down explicitly.

Scenario files name domains, tools, tables and an evaluation method; checking them needs the
tool catalog and the names of the registered scorers. `toolplay.catalog.Catalog.load_context()`
builds this from the catalog, so the scenarios layer never imports the layers above it.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolplay.tools import ToolCatalog


@dataclass(frozen=True)
class LoadContext:
    """The tool catalog and the known evaluation methods (None: not checked)."""

    tools: ToolCatalog
    evaluations: frozenset[str] | None = None
