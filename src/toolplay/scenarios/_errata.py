"""Versioned errata: corrections to a suite's scenarios, applied without editing its files.

Benchmarks ship broken items (a gold answer no tool call can produce, a check nobody can pass);
fixing them in place would silently change every result ever scored on them. An errata file
instead lists each correction with the version that introduced it, so a run says which version
of the suite it was scored against and `compare` can refuse to mix versions.

The file (YAML or JSON; `toolplay schema errata` prints its JSON Schema):

```yaml
errata_format: 1                  # this format's version
suite: autode-data                # what it corrects (free text, for people)
entries:
  - version: "1"                  # dotted numbers: 1 < 1.1 < 1.2 < 2
    scenario: fdd4d3d9-...        # a scenario id of the suite
    what: gold sourceUnit 'kilometer' -> 'kilometers'
    why: every assistant that filled it wrote 'kilometers'
    set: {metadata.label.arguments.sourceUnit: kilometers}   # dotted path -> new value
  - version: "1.1"
    scenario: 0f62ed3a-...
    what: withdrawn
    why: the gold time cannot be stated by the user script
    withdraw: true                # the scenario leaves the suite (scored by no run)
```

An entry either withdraws its scenario or changes it: `set` (dotted path -> value; list
items by number, `milestones.0.constraints.1`; a new key may be added to an existing mapping)
and `unset` (paths to remove). The suite at version V is the original with every entry whose
version is at most V applied in file order; `none` is the original itself (every run scored
before errata existed is at `none`).

A change is **scoring-only** when it touches only what scoring and reports read
(`SCORING_ONLY`): a stored run can be re-scored against it (`toolplay score RUN --errata FILE
--suite-version V`). Any other change alters what is played (the world, the tools, the user,
the reference the oracle and static modes replay), so the stored conversations do not answer
it and those scenarios must be played again. The test is semantic: a scenario needs playing
again when its *played view* (the scenario less the scoring-only fields) differs between the
version it was played under and the version asked for.

Every problem is refused naming the file, the line, the field and the reason.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._load import parse_scenario
from toolplay.scenarios._model import Scenario

if TYPE_CHECKING:
    import yaml

__all__ = [
    "ERRATA_FORMAT",
    "ORIGINAL",
    "SCORING_ONLY",
    "Errata",
    "ErrataError",
    "ErrataFile",
    "Erratum",
    "VersionedSuite",
    "apply_errata",
    "load_errata",
    "played_view",
    "version_key",
]

ERRATA_FORMAT: Literal[1] = 1
ORIGINAL = "none"
"""The version of a suite without any erratum applied."""

SCORING_ONLY = (
    "milestones",
    "minefields",
    "evaluation",
    "metadata.label",
    "description",
    "categories",
    "domain",
    "split",
)
"""Scenario fields only scoring and reports read (`metadata.label` is the slot label the
`slots` scorer compares with): changing them needs no new play."""

_VERSION = re.compile(r"^[0-9]+(\.[0-9]+)*$")


class ErrataError(ScenarioError):
    """An errata file, or an entry of it, cannot be used; names file, line, field, reason."""

    def __init__(self, path: Path | str, line: int | None, field: str | None, reason: str):
        source = f"{path}:{line}" if line is not None else str(path)
        super().__init__(source, field, reason)


def version_key(version: str) -> tuple[int, ...]:
    """The sort key of a version (`none` sorts before every numbered one)."""
    if version == ORIGINAL:
        return ()
    return tuple(int(part) for part in version.split("."))


class Erratum(BaseModel):
    """One correction of one scenario."""

    model_config = ConfigDict(extra="forbid")

    version: str = Field(
        pattern=_VERSION.pattern,
        description="The suite version this correction belongs to: dotted numbers (1, 1.1, 2).",
    )
    scenario: str = Field(min_length=1, description="The id of the scenario it corrects.")
    what: str = Field(min_length=1, description="What changed, in a line.")
    why: str = Field(min_length=1, description="Why: the evidence that the item was broken.")
    set: dict[str, Any] = Field(
        default_factory=dict,
        description="Dotted path into the scenario -> its new value (list items by number).",
    )
    unset: list[str] = Field(default_factory=list, description="Dotted paths to remove.")
    withdraw: bool = Field(
        default=False, description="The scenario leaves the suite from this version on."
    )

    @model_validator(mode="after")
    def _one_kind(self) -> Erratum:
        if self.withdraw and (self.set or self.unset):
            raise ValueError("an entry either withdraws its scenario or changes it, not both")
        if not (self.withdraw or self.set or self.unset):
            raise ValueError("an entry needs `set`, `unset` or `withdraw: true`")
        for path in [*self.set, *self.unset]:
            if not path or any(not part for part in path.split(".")):
                raise ValueError(f"path {path!r} has an empty part")
        return self

    def paths(self) -> list[str]:
        """Every path the entry changes."""
        return [*self.set, *self.unset]


class ErrataFile(BaseModel):
    """An errata file (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    errata_format: Literal[1] = Field(description="Version of this file format (1).")
    suite: str = Field(default="", description="The suite it corrects, for people.")
    description: str = ""
    entries: list[Erratum] = Field(default_factory=list)


@dataclass(frozen=True)
class Errata:
    """A loaded errata file, with the line of every entry for error messages."""

    path: Path
    file: ErrataFile
    lines: Mapping[int, int] = field(default_factory=dict)
    """Entry index -> the line it starts on (1-based)."""

    @property
    def versions(self) -> list[str]:
        """The versions the file defines, oldest first."""
        return sorted({e.version for e in self.file.entries}, key=version_key)

    def check_version(self, version: str) -> str:
        """`version` if the file defines it (or it is `none`).

        Raises:
            ErrataError: naming the versions the file defines.
        """
        if version == ORIGINAL or version in self.versions:
            return version
        known = ", ".join([ORIGINAL, *self.versions])
        raise ErrataError(
            self.path, None, "--suite-version", f"no version {version!r}; known: {known}"
        )

    def upto(self, version: str) -> list[tuple[int, Erratum]]:
        """The entries of every version up to `version`, in file order, with their index."""
        limit = version_key(version)
        return [(i, e) for i, e in enumerate(self.file.entries) if version_key(e.version) <= limit]

    def digest(self, version: str) -> str:
        """SHA-256 of the entries up to `version`: it changes when any of them is edited (an
        added later version leaves it alone).
        """
        data = [e.model_dump(mode="json") for _, e in self.upto(version)]
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def line(self, index: int) -> int | None:
        """The line entry `index` starts on."""
        return self.lines.get(index)


def load_errata(path: Path) -> Errata:
    """Read and validate an errata file.

    Raises:
        ErrataError: The file is unreadable, not YAML/JSON, or an entry is malformed (naming
            its line and field).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ErrataError(path, None, None, "no such errata file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ErrataError(path, None, None, f"not readable as UTF-8 text ({exc})") from exc
    import yaml  # noqa: PLC0415 (start-up time: imported on first use)

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise ErrataError(path, line, None, f"not valid YAML or JSON ({exc})") from exc
    lines = _line_map(node)
    if not isinstance(data, dict):
        raise ErrataError(path, 1, None, "expected a mapping with errata_format and entries")
    try:
        errata = ErrataFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        where = _field_name(loc)
        line = _nearest_line(lines, loc)
        more = f" (and {len(exc.errors()) - 1} more problem(s))" if len(exc.errors()) > 1 else ""
        message = str(first.get("ctx", {}).get("error", first["msg"]))
        raise ErrataError(path, line, where, message.removeprefix("Value error, ") + more) from exc
    starts = {
        i: lines[("entries", i)] for i in range(len(errata.entries)) if ("entries", i) in lines
    }
    return Errata(path, errata, starts)


def _field_name(loc: tuple[Any, ...]) -> str | None:
    parts: list[str] = []
    for part in loc:
        if isinstance(part, int) and parts:
            parts[-1] += f"[{part}]"
        else:
            parts.append(str(part))
    return ".".join(parts) or None


def _line_map(node: yaml.Node | None, prefix: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], int]:
    """Path of every node -> its 1-based line."""
    import yaml  # noqa: PLC0415 (loaded by `load_errata` already)

    if node is None:
        return {}
    found = {prefix: node.start_mark.line + 1}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            found[(*prefix, key.value)] = key.start_mark.line + 1
            found.update(
                {
                    k: v
                    for k, v in _line_map(value, (*prefix, key.value)).items()
                    if k != (*prefix, key.value)
                }
            )
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            found.update(_line_map(item, (*prefix, i)))
    return found


def _nearest_line(lines: Mapping[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int | None:
    for end in range(len(loc), -1, -1):
        if loc[:end] in lines:
            return lines[loc[:end]]
    return None


# ---- applying ---------------------------------------------------------------------------


@dataclass(frozen=True)
class VersionedSuite:
    """Scenarios at one version of the suite."""

    version: str
    scenarios: list[Scenario]
    withdrawn: list[str]
    """Ids of selected scenarios withdrawn at this version (left out of `scenarios`)."""
    changed: dict[str, list[Erratum]]
    """Scenario id -> the entries applied to it."""


def apply_errata(
    scenarios: Sequence[Scenario],
    errata: Errata,
    version: str,
    context: LoadContext,
    suite_ids: Collection[str],
) -> VersionedSuite:
    """The scenarios at `version`: each entry up to it applied, in file order.

    Args:
        scenarios: The scenarios selected from the original suite.
        errata: The errata file.
        version: The version wanted (`none`: the scenarios as they are).
        context: What scenario loading checks against (tools, evaluations).
        suite_ids: Every id of the suite (an entry naming another id is refused).

    Raises:
        ErrataError: An unknown version, an entry for a scenario the suite does not have, a
            path into nothing, or a change that leaves an invalid scenario.
    """
    errata.check_version(version)
    entries = errata.upto(version)
    known = set(suite_ids)
    for index, entry in entries:
        if entry.scenario not in known:
            raise ErrataError(
                errata.path,
                errata.line(index),
                f"entries[{index}].scenario",
                f"the suite has no scenario {entry.scenario!r}",
            )
    by_id: dict[str, list[tuple[int, Erratum]]] = {}
    for index, entry in entries:
        by_id.setdefault(entry.scenario, []).append((index, entry))
    out: list[Scenario] = []
    withdrawn: list[str] = []
    changed: dict[str, list[Erratum]] = {}
    for scenario in scenarios:
        mine = by_id.get(scenario.id)
        if not mine:
            out.append(scenario)
            continue
        changed[scenario.id] = [e for _, e in mine]
        patched = _patched(scenario, mine, errata, context)
        if patched is None:
            withdrawn.append(scenario.id)
        else:
            out.append(patched)
    return VersionedSuite(version, out, withdrawn, changed)


def _patched(
    scenario: Scenario, entries: Sequence[tuple[int, Erratum]], errata: Errata, context: LoadContext
) -> Scenario | None:
    data: Any = scenario.model_dump(mode="json")
    last = 0
    for index, entry in entries:
        if entry.withdraw:
            return None
        last = index
        for path, value in entry.set.items():
            _edit(data, path, value, errata, index, "set")
        for path in entry.unset:
            _edit(data, path, None, errata, index, "unset", remove=True)
        if data.get("id") != scenario.id:
            raise ErrataError(
                errata.path,
                errata.line(index),
                f"entries[{index}]",
                "an erratum cannot change a scenario's id",
            )
    try:
        return parse_scenario(data, f"{scenario.id} as corrected", context)
    except ScenarioError as exc:
        raise ErrataError(
            errata.path,
            errata.line(last),
            f"entries[{last}]",
            f"the corrected scenario {scenario.id!r} is invalid: {exc}",
        ) from exc


def _edit(
    data: Any,
    path: str,
    value: Any,
    errata: Errata,
    index: int,
    key: str,
    *,
    remove: bool = False,
) -> None:
    parts = path.split(".")
    node = data
    where = f"entries[{index}].{key}"
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise ErrataError(
                    errata.path,
                    errata.line(index),
                    where,
                    f"{path}: {'.'.join(parts[:depth]) or 'the scenario'} has no item {part!r} "
                    f"(it has {len(node)})",
                )
            if last:
                if remove:
                    del node[int(part)]
                else:
                    node[int(part)] = value
                return
            node = node[int(part)]
        elif isinstance(node, dict):
            if last:
                if remove:
                    if part not in node:
                        raise ErrataError(
                            errata.path, errata.line(index), where, f"{path}: nothing to remove"
                        )
                    del node[part]
                else:
                    node[part] = value
                return
            if part not in node or node[part] is None:
                raise ErrataError(
                    errata.path,
                    errata.line(index),
                    where,
                    f"{path}: the scenario has no {'.'.join(parts[: depth + 1])!r}",
                )
            node = node[part]
        else:
            raise ErrataError(
                errata.path,
                errata.line(index),
                where,
                f"{path}: {'.'.join(parts[:depth])!r} is a value, not a mapping or list",
            )


def played_view(scenario: Scenario) -> dict[str, Any]:
    """The scenario less what only scoring and reports read (`SCORING_ONLY`): two versions of
    a scenario with equal played views play alike.
    """
    data: dict[str, Any] = scenario.model_dump(mode="json")
    for path in SCORING_ONLY:
        node: Any = data
        parts = path.split(".")
        for part in parts[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict):
            node.pop(parts[-1], None)
    return data
