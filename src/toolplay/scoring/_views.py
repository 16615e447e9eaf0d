"""What a scorer shows of its results: the viewer's evidence lists and its summary section.

The reports render these and nothing method-specific: a scorer declares how its evidence reads
in the trajectory viewer (`Scorer.show_evidence` -> `EvidenceView`) and how its part of the run
summary reads (`Scorer.show_section` -> `SectionView`: rows added to the metrics table,
run-wide tables such as ToolTalk's counts, breakdowns such as ToolTalk's splits). A plugin's
scorer does the same for its own evidence and section.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from pydantic import BaseModel

__all__ = [
    "Breakdown",
    "CheckParts",
    "EvidenceView",
    "MetricValue",
    "SectionView",
    "TrialSpread",
    "cell_text",
    "empty_view",
]


class TrialSpread(BaseModel):
    """A metric's spread over trials: mean and sample standard deviation of per-trial values."""

    mean: float | None
    std: float | None


MetricValue = float | int | TrialSpread | None
"""One value a report shows in a metric cell (a spread reads as mean ± std)."""


class EvidenceView(TypedDict):
    """The trajectory viewer's lists for one score; every key is always present.

    `milestones` and `minefields` (label, message_index, similarity, constraints, and `fired`
    for minefields) with `before_veto` (the score before a veto); a per-call table
    (`call_columns`, `calls`, `call_marks` for message badges) with `missed` (expected calls
    never made) and `error_types`; `slot_rows` (slot, label value, predicted value, verdict);
    `tables` (any other table: `title`, `columns`, `rows`); and one-line `notes`.
    """

    milestones: list[dict[str, Any]]
    minefields: list[dict[str, Any]]
    before_veto: float | None
    call_columns: list[str]
    calls: list[list[Any]]
    call_marks: list[dict[str, Any]]
    missed: list[str]
    error_types: list[str]
    slot_rows: list[list[str]]
    tables: list[dict[str, Any]]
    notes: list[str]


def empty_view() -> EvidenceView:
    """An evidence view with nothing in it (a renderer fills what its evidence has)."""
    return EvidenceView(
        milestones=[],
        minefields=[],
        before_veto=None,
        call_columns=[],
        calls=[],
        call_marks=[],
        missed=[],
        error_types=[],
        slot_rows=[],
        tables=[],
        notes=[],
    )


def cell_text(value: Any) -> str:
    """A value as the viewer's table cell shows it (`–` for none, JSON for structures)."""
    if value is None:
        return "–"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


@dataclass(frozen=True)
class Breakdown:
    """A method's own breakdown of its metrics by group (ToolTalk: by split)."""

    key: str
    """Its name in the summary (`splits`); the run's intervals of it are filed under it."""
    title: str
    """The table's title, e.g. `By split`."""
    rows: Mapping[str, Mapping[str, MetricValue]]
    """Group -> column -> value (counts such as `conversations` among the columns)."""


@dataclass(frozen=True)
class CheckParts:
    """One trial's check part by part, for the audit (`toolplay audit`): graded parts (ToolSandbox's
    milestones: id -> similarity in [0, 1]) or slots against their gold (AutoDE's).
    """

    graded: Mapping[str, float] | None = None
    """Part id -> how well the trial reached it (None: the check has no graded parts)."""
    gold: Mapping[str, Any] | None = None
    """Slot -> its gold value (None: the check has no slots)."""
    correct: frozenset[str] = frozenset()
    """The gold slots filled correctly."""
    wrong: Mapping[str, Any] = field(default_factory=dict)
    """Gold slot -> the value given instead (as recorded)."""


@dataclass(frozen=True)
class SectionView:
    """How a method's section of the run summary reads in a report."""

    metrics: Mapping[str, MetricValue] = field(default_factory=dict)
    """Rows added to the run's metrics table (dotted names, e.g. `failures.never_called`)."""
    tables: Sequence[tuple[str, Mapping[str, MetricValue]]] = ()
    """Run-wide records, each a titled table of name -> value (ToolTalk's `Counts`)."""
    breakdowns: Sequence[Breakdown] = ()
    """Breakdowns shown before the generic ones (by category, domain, augmentation)."""
