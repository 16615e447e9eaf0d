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
from toolplay.scenarios._load import SCENARIO_SUFFIXES, load_scenario_paths
from toolplay.scenarios._model import Scenario
from toolplay.scenarios._variants import AUGMENTATION_SETTINGS, expand_variants

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


def _with_variants(name: str, description: str) -> Callable[[], Suite]:
    """A built-in suite of base scenarios expanded with their generated variants."""

    def load() -> Suite:
        folder = DATA / name
        bases = load_scenario_paths([folder])
        expanded = expand_variants(bases, source=str(folder))
        extra: dict[str, object] = {
            "bases": len(bases),
            "augmentations": list(AUGMENTATION_SETTINGS),
            "skipped_variants": [(v.variant_id, v.reason) for v in expanded.skipped],
        }
        return Suite(name, expanded.scenarios, description, str(folder), extra=extra)

    return load


BUILTIN: dict[str, tuple[str, Callable[[], Suite]]] = {
    "quick": (
        "A handful of small scenarios for smoke runs.",
        _builtin("quick", "A handful of small scenarios for smoke runs."),
    ),
    "sandbox": (
        "ToolSandbox-style stateful scenarios scored by milestones and minefields: base "
        "scenarios plus generated world-state variants, each under 8 tool augmentations.",
        _with_variants(
            "sandbox",
            "ToolSandbox-style stateful scenarios scored by milestones and minefields: base "
            "scenarios plus generated world-state variants, each under 8 tool augmentations.",
        ),
    ),
    "autode": (
        "AutoDE-style user scripts over the sandbox tools, scored by slot precision/recall/F1.",
        lambda: _import_autode(""),
    ),
}
"""Built-in suites by name: (description, loader)."""

def _import_tooltalk(argument: str) -> Suite:
    from toolplay.scenarios._tooltalk import import_tooltalk

    return import_tooltalk(argument)


def _import_autode(argument: str) -> Suite:
    from toolplay.scenarios._autode import autode_suite

    return autode_suite(Path(argument) if argument else None)


def _import_autode_data(argument: str) -> Suite:
    from toolplay.scenarios._autode_data import import_autode_data

    return import_autode_data(argument)


IMPORTERS: dict[str, tuple[str, Importer]] = {
    "tooltalk": (
        "ToolTalk data folder (databases/ plus one folder of conversations per split).",
        _import_tooltalk,
    ),
    "autode": (
        "A file or folder of AutoDE user scripts (format: toolplay.scenarios._autode).",
        _import_autode,
    ),
    "autode-data": (
        "An AutoDE checkout (datasets/data_v1_2.jsonl, API_list.xlsx): the official benchmark "
        "under AutoDE's protocol; DIR?required=marked for the sheet's own required slots.",
        _import_autode_data,
    ),
}
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
    # Say which of the three forms the spec looks like, so the reason fits the mistake.
    if sep and prefix.isidentifier():
        known_prefixes = ", ".join(f"{p}:" for p in sorted(IMPORTERS))
        raise ScenarioError(spec, None, f"unknown importer {prefix!r}; known: {known_prefixes}")
    if "/" in spec or path.suffix in SCENARIO_SUFFIXES:
        raise ScenarioError(spec, None, "no such file or folder")
    known = sorted(BUILTIN) + [f"{p}:..." for p in sorted(IMPORTERS)]
    raise ScenarioError(spec, None, f"unknown suite; known suites: {', '.join(known)}, or a path")
