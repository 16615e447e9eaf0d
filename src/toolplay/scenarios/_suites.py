"""Suites: named sets of scenarios, built in, from files, or imported from other formats.

A suite spec is one of:
- a named suite (`quick`, `sandbox`, ...): a `SuiteSource` without an argument;
- `NAME:ARGUMENT` for a source that takes one (an importer, e.g. `tooltalk:DIR`);
- a path to a scenario file or a folder of them.

Sources are registered in the catalog (`toolplay.catalog`), built-in ones exactly like a
plugin's; `resolve_suite` only needs the sources and a `LoadContext`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._lazy import ScenarioEntry, entries_of, lazy_folder
from toolplay.scenarios._load import SCENARIO_SUFFIXES, load_scenario_paths
from toolplay.scenarios._model import Scenario
from toolplay.scenarios._variant_suite import lazy_variant_scenarios
from toolplay.scenarios._variants import AUGMENTATION_SETTINGS, expand_variants

DATA = Path(str(resources.files("toolplay.scenarios") / "data"))


@dataclass(frozen=True)
class Suite:
    """A named, ordered set of scenarios."""

    name: str
    scenarios: Sequence[Scenario]
    """The scenarios in order; a `LazyScenarios` builds each on first use."""
    description: str = ""
    source: str = ""
    default_mode: str = "dynamic"
    modes: Mapping[str, str] = field(default_factory=dict)
    """What a mode name means for this suite when it differs from the catalog's mode of that
    name, e.g. `{"static": "autode-static"}`: `--mode static` plays AutoDE's static variant."""
    extra: dict[str, object] = field(default_factory=dict)
    presentation: str = "toolplay"
    """The presentation a run of this suite uses unless told otherwise (`--presentation`): a
    method's official data names its reference presentation, so a live model is asked what
    the reference asked it."""
    paper_setup: Callable[[Mapping[str, Any]], list[str]] | None = None
    """Checks a run's configuration (`RunConfig` as JSON) against the setup of the paper's runs
    on this suite, returning each departure as a sentence (warned once and recorded in the
    summary); None: no published setup to compare with."""

    def __len__(self) -> int:
        return len(self.scenarios)

    def entries(self) -> tuple[ScenarioEntry, ...]:
        """Id, categories and variant of every scenario, without building a lazy one."""
        return entries_of(self.scenarios)

    def mode(self, requested: str | None) -> str:
        """The catalog mode that plays this suite under `requested` (None: the suite's default)."""
        chosen = requested or self.default_mode
        return self.modes.get(chosen, chosen)


SuiteLoader = Callable[[str, LoadContext], Suite]
"""Builds a suite from the argument after `NAME:` (empty for a named suite)."""


@dataclass(frozen=True)
class SuiteSource:
    """A way to get a suite: a named suite, or an importer that takes an argument."""

    name: str
    load: SuiteLoader
    description: str = ""
    argument: str | None = None
    """What the importer's argument is (e.g. `DIR`); None for a named suite without one."""

    @property
    def usage(self) -> str:
        """How to write the spec: `quick`, `tooltalk:DIR`."""
        return self.name if self.argument is None else f"{self.name}:{self.argument}"


def departure(config: Mapping[str, Any], key: str, paper: Collection[Any], why: str) -> list[str]:
    """One sentence when a run's `key` (of its configuration as JSON) is set and not one of the
    `paper`'s values, saying `why` it departs from the paper's setup; else none.
    """
    value = config.get(key)
    return [] if value is None or value in paper else [f"{key} {value!r}: {why}"]


def folder_suite(name: str, description: str) -> SuiteLoader:
    """A named suite: the scenario files under the package's `scenarios/data/<name>/`."""

    def load(argument: str, context: LoadContext) -> Suite:
        folder = DATA / name
        scenarios = lazy_folder(
            folder, lambda: load_scenario_paths([folder], context), SCENARIO_SUFFIXES
        )
        return Suite(name, scenarios, description, str(folder))

    return load


def variant_suite(name: str, description: str) -> SuiteLoader:
    """A named suite of base scenarios expanded with their generated variants."""

    def load(argument: str, context: LoadContext) -> Suite:
        folder = DATA / name
        lazy = lazy_variant_scenarios(folder, context)
        if lazy is not None:  # a current index: build only what is used (`_lazy`)
            scenarios, index = lazy
            extra: dict[str, object] = {
                "bases": index["bases"],
                "augmentations": list(index["augmentations"]),
                "skipped_variants": [(vid, why) for vid, why in index["skipped"]],
            }
            return Suite(name, scenarios, description, str(folder), extra=extra)
        bases = load_scenario_paths([folder], context)
        expanded = expand_variants(bases, context, source=str(folder))
        extra = {
            "bases": len(bases),
            "augmentations": list(AUGMENTATION_SETTINGS),
            "skipped_variants": [(v.variant_id, v.reason) for v in expanded.skipped],
        }
        return Suite(name, expanded.scenarios, description, str(folder), extra=extra)

    return load


def resolve_suite(
    spec: str,
    suites: Mapping[str, SuiteSource],
    importers: Mapping[str, SuiteSource],
    context: LoadContext,
) -> Suite:
    """Resolve a suite spec (see the module docstring) into a `Suite`.

    Args:
        spec: A named suite, `NAME:ARGUMENT`, or a path.
        suites: Named suites (no argument) by name.
        importers: Sources taking an argument, by name.
        context: What loading scenarios needs from the catalog.

    Raises:
        ScenarioError: naming the spec (or the file) and what is wrong with it.
    """
    if spec in suites:
        return suites[spec].load("", context)
    prefix, sep, argument = spec.partition(":")
    importer = importers.get(prefix)
    if importer is not None and sep:
        if not argument:
            raise ScenarioError(spec, None, _give_argument(importer))
        return importer.load(argument, context)
    path = Path(spec)
    if path.exists():
        scenarios = load_scenario_paths([path], context)
        return Suite(path.stem or spec, scenarios, source=str(path.resolve()))
    # Say which of the forms the spec looks like, so the reason fits the mistake.
    if importer is not None:
        raise ScenarioError(spec, None, _give_argument(importer))
    usages = ", ".join(s.usage for s in [*suites.values(), *importers.values()])
    if sep and prefix.isidentifier():
        raise ScenarioError(spec, None, f"unknown suite source {prefix!r}; known: {usages}")
    if "/" in spec or path.suffix in SCENARIO_SUFFIXES:
        raise ScenarioError(spec, None, "no such file or folder")
    raise ScenarioError(spec, None, f"unknown suite; known: {usages}, or a path")


def _give_argument(importer: SuiteSource) -> str:
    """Why an importer's name alone is no suite: it reads a folder or file, to be named."""
    what = {"DIR": "folder", "PATH": "file or folder", "FILE": "file"}
    thing = what.get(importer.argument or "", importer.argument or "argument")
    return (
        f"{importer.name} reads a {thing}: give it after the colon, "
        f"--suite {importer.usage} (e.g. --suite {importer.name}:path/to/it)"
    )
