"""Suites whose scenarios are built only when used: `toolplay run --limit 1` builds one.

Building the full `sandbox` suite means deriving every world-state variant from its base's
reference (seconds of work for 2,848 scenarios), yet a run of `--limit 1` needs one scenario
and `toolplay suites` needs none, only ids, categories and variant names. So a suite may
hold a `LazyScenarios`: the list of `ScenarioEntry` (what is known about each scenario without
building it) and a function that builds scenario `i` on first access.

The built-in `sandbox` suite gets its entries from an index shipped beside its files
(`data/sandbox.index.json`, written by `scripts/index_suites.py`). The index names the
fingerprint of the files it was made from; when they differ (an edited scenario file) the
suite is built in full as before, so a stale index can cost time, never correctness. A test
rebuilds the index and checks it equals the shipped one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple, overload

from toolplay.scenarios._model import Scenario
from toolplay.scenarios._variants import NONE

INDEX_VERSION = 1


class ScenarioEntry(NamedTuple):
    """What a listing or a selection needs to know about a scenario, without building it."""

    id: str
    categories: tuple[str, ...]
    augmentation: str | None
    state_variant: str | None

    @property
    def setting(self) -> str:
        """The augmentation setting (`none` when unaugmented), as `augmentation_of`."""
        return self.augmentation or NONE

    @classmethod
    def of(cls, scenario: Scenario) -> ScenarioEntry:
        """The entry of a built scenario."""
        state = scenario.metadata.get("state_variant")
        return cls(
            scenario.id,
            tuple(scenario.categories),
            scenario.augmentation,
            None if state is None else str(state),
        )


class LazyScenarios(Sequence[Scenario]):
    """A sequence of scenarios built on first access (see the module docstring)."""

    def __init__(self, entries: Sequence[ScenarioEntry], build: Callable[[int], Scenario]):
        self.entries = tuple(entries)
        self._build = build
        self._built: dict[int, Scenario] = {}

    def __len__(self) -> int:
        return len(self.entries)

    @overload
    def __getitem__(self, index: int) -> Scenario: ...

    @overload
    def __getitem__(self, index: slice) -> list[Scenario]: ...

    def __getitem__(self, index: int | slice) -> Scenario | list[Scenario]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        found = self._built.get(index)
        if found is None:
            found = self._built[index] = self._build(index)
        return found

    def __iter__(self) -> Iterator[Scenario]:
        for i in range(len(self)):
            yield self[i]

    @property
    def built(self) -> int:
        """How many scenarios have been built so far (for tests and benchmarks)."""
        return len(self._built)


def entries_of(scenarios: Sequence[Scenario]) -> tuple[ScenarioEntry, ...]:
    """The entries of a sequence of scenarios, without building a lazy one."""
    if isinstance(scenarios, LazyScenarios):
        return scenarios.entries
    return tuple(ScenarioEntry.of(s) for s in scenarios)


def folder_fingerprint(folder: Path, suffixes: Sequence[str]) -> str:
    """SHA-256 over a folder's scenario files (relative names and bytes), in sorted order."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.suffix in suffixes):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def read_index(path: Path, fingerprint: str) -> dict[str, Any] | None:
    """A suite index, or None when it is missing, of another version, or of other files."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
        return None
    return data if data.get("fingerprint") == fingerprint else None


def folder_index(
    folder: Path, scenarios: Sequence[Scenario], suffixes: Sequence[str]
) -> dict[str, Any]:
    """The index of a suite read whole from `folder` (its entries and the files' fingerprint)."""
    return {
        "version": INDEX_VERSION,
        "fingerprint": folder_fingerprint(folder, suffixes),
        "entries": [
            [e.id, list(e.categories), e.augmentation, e.state_variant]
            for e in entries_of(scenarios)
        ],
    }


def lazy_folder(
    folder: Path, load_all: Callable[[], list[Scenario]], suffixes: Sequence[str]
) -> Sequence[Scenario]:
    """A folder suite's scenarios: listed from its current index, loaded whole on first use.

    Without a current index (`<folder>.index.json` of these files) they are loaded now.
    """
    index = read_index(
        folder.with_name(f"{folder.name}.index.json"), folder_fingerprint(folder, suffixes)
    )
    if index is None or "entries" not in index:
        return load_all()
    loaded: list[list[Scenario]] = []

    def build(i: int) -> Scenario:
        if not loaded:
            loaded.append(load_all())
        return loaded[0][i]

    entries = [
        ScenarioEntry(sid, tuple(cats), aug, state) for sid, cats, aug, state in index["entries"]
    ]
    return LazyScenarios(entries, build)
