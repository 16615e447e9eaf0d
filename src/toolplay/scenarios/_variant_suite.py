"""The built-in suites of base scenarios expanded with their variants (`sandbox`), lazily.

With a current index (`_lazy`), loading the suite reads the index and nothing else; scenario
`i` is built when first used: its base's file is parsed, the base's world-state variants are
derived (all of them at once, as the full expansion does, memoised per base), and the
augmentation applied. The result is the scenario the full expansion gives, in the same place
(a test checks the index against the full build).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._lazy import (
    INDEX_VERSION,
    LazyScenarios,
    ScenarioEntry,
    folder_fingerprint,
    read_index,
)
from toolplay.scenarios._load import SCENARIO_SUFFIXES, load_scenario_file
from toolplay.scenarios._model import Scenario
from toolplay.scenarios._variants import (
    AUGMENTATION_SEPARATOR,
    AUGMENTATION_SETTINGS,
    NONE,
    augmentation_variant,
    base_with_variants,
)

__all__ = ["index_path", "lazy_variant_scenarios", "variant_index"]


def index_path(folder: Path) -> Path:
    """Where the index of the suite in `folder` is kept: beside the folder."""
    return folder.with_name(f"{folder.name}.index.json")


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in SCENARIO_SUFFIXES)


def variant_index(folder: Path, context: LoadContext) -> dict[str, Any]:
    """Build the index of a variant suite by expanding it in full (for `scripts/`)."""
    plain: list[list[Any]] = []
    skipped: list[list[str]] = []
    bases = 0
    for file in _files(folder):
        for base in load_scenario_file(file, context):
            bases += 1
            group, unsound = base_with_variants(base, context, str(folder))
            for scenario in group:
                entry = ScenarioEntry.of(scenario)
                relative = file.relative_to(folder).as_posix()
                plain.append(
                    [entry.id, base.id, relative, list(entry.categories), entry.state_variant]
                )
            skipped += [[item.variant_id, item.reason] for item in unsound]
    return {
        "version": INDEX_VERSION,
        "fingerprint": folder_fingerprint(folder, SCENARIO_SUFFIXES),
        "bases": bases,
        "augmentations": list(AUGMENTATION_SETTINGS),
        "plain": plain,
        "skipped": skipped,
    }


def lazy_variant_scenarios(
    folder: Path, context: LoadContext
) -> tuple[LazyScenarios, dict[str, Any]] | None:
    """The suite's scenarios built on demand, and its index; None without a current index."""
    index = read_index(index_path(folder), folder_fingerprint(folder, SCENARIO_SUFFIXES))
    if index is None or index["augmentations"] != list(AUGMENTATION_SETTINGS):
        return None  # no index, or one written for other augmentation settings: build in full
    plain: Sequence[list[Any]] = index["plain"]
    augmentations: list[str] = index["augmentations"]
    entries = [
        ScenarioEntry(
            sid if name == NONE else f"{sid}{AUGMENTATION_SEPARATOR}{name}",
            tuple(categories),
            None if name == NONE else name,
            state,
        )
        for name in augmentations
        for sid, _, _, categories, state in plain
    ]
    files: dict[str, dict[str, Scenario]] = {}
    groups: dict[str, dict[str, Scenario]] = {}

    def plain_scenario(position: int) -> Scenario:
        sid, base_id, relative, _, _ = plain[position]
        group = groups.get(base_id)
        if group is None:
            if relative not in files:
                loaded = load_scenario_file(folder / relative, context)
                files[relative] = {s.id: s for s in loaded}
            made, _ = base_with_variants(files[relative][base_id], context, str(folder))
            group = groups[base_id] = {s.id: s for s in made}
        return group[sid]

    def build(i: int) -> Scenario:
        which, position = divmod(i, len(plain))
        return augmentation_variant(plain_scenario(position), augmentations[which])

    return LazyScenarios(entries, build), index
