"""Suites: named sets of scenarios, built in, from files, or imported from other formats.

A suite spec is one of:
- a built-in name (`quick`, ...): the YAML files under `scenarios/data/<name>/`;
- `NAME:ARGUMENT` for an importer registered in `IMPORTERS` (e.g. `tooltalk:DIR`);
- a path to a scenario file or a folder of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._load import load_scenario_paths
from toolplay.scenarios._model import Scenario

DATA = Path(str(resources.files("toolplay.scenarios") / "data"))


@dataclass(frozen=True)
class Suite:
    """A named, ordered set of scenarios."""

    name: str
    scenarios: list[Scenario]
    description: str = ""
    source: str = ""
    default_mode: str = "dynamic"
    extra: dict[str, object] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.scenarios)


Importer = Callable[[str], Suite]
"""Builds a suite from the argument after `NAME:`."""


def _builtin(name: str, description: str) -> Callable[[], Suite]:
    def load() -> Suite:
        folder = DATA / name
        return Suite(name, load_scenario_paths([folder]), description, str(folder))

    return load


BUILTIN: dict[str, tuple[str, Callable[[], Suite]]] = {
    "quick": (
        "A handful of small scenarios for smoke runs.",
        _builtin("quick", "A handful of small scenarios for smoke runs."),
    ),
}
"""Built-in suites by name: (description, loader)."""

IMPORTERS: dict[str, tuple[str, Importer]] = {}
"""Importers by prefix: (description, importer)."""


def load_suite(spec: str) -> Suite:
    """Resolve a suite spec (see the module docstring) into a `Suite`."""
    if spec in BUILTIN:
        return BUILTIN[spec][1]()
    prefix, sep, argument = spec.partition(":")
    if sep and prefix in IMPORTERS:
        return IMPORTERS[prefix][1](argument)
    path = Path(spec)
    if path.exists():
        return Suite(path.stem or spec, load_scenario_paths([path]), source=str(path))
    known = sorted(BUILTIN) + [f"{p}:..." for p in sorted(IMPORTERS)]
    raise ScenarioError(spec, None, f"unknown suite; known suites: {', '.join(known)}, or a path")
