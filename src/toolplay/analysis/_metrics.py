"""A summary's metrics as typed rows, in the order every report shows them.

Metrics come as `MetricValues` (each method names its own, declared with its scorer in the
catalog) plus what each method's scorer shows of its section of the summary (`SectionView`:
rows added to the metrics table, such as AutoDE's failure counts; run-wide tables, such as
ToolTalk's counts; breakdowns, such as ToolTalk's splits). A breakdown row is a mapping of
column to value (with its `scenarios`/`trials` counts). Headline metrics are ordered first;
counts are listed apart and never charted. Values stay typed here; `toolplay.report` formats
them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from toolplay.runs import RunSummary, TrialStatistics
from toolplay.scoring import Breakdown, MetricValue, MetricValues, Scorer, SectionView

__all__ = [
    "COUNT_KEYS",
    "GROUP_SECTIONS",
    "HEADLINE_ORDER",
    "SummaryView",
    "TrialRow",
    "Value",
    "chart_metric",
    "group_table",
    "ordered",
    "summary_view",
    "trial_rows",
]

HEADLINE_ORDER = (
    "similarity",
    "milestone_similarity",
    "success_rate",
    "soft_success_rate",
    "score",
    "f1",
    "precision",
    "recall",
    "slot_f1",
    "slot_precision",
    "slot_recall",
    "incorrect_action_rate",
    "perfect_rate",
    "turn_count",
)
"""Metrics shown first, in this order, when a summary has them."""

GROUP_SECTIONS = (
    ("by_category", "By category"),
    ("by_domain", "By domain"),
    ("by_augmentation", "By augmentation"),
)
"""The summary's generic breakdowns: (key, title); a method's own come before them."""

COUNT_KEYS = ("scenarios", "trials", "conversations", "dialogues")
"""Names that are counts rather than metrics (listed first in tables, never charted):
`scenarios` distinct scenarios, `trials` scored scenario trials, `conversations` (ToolTalk)
and `dialogues` (AutoDE) scored trials in the published methods' words."""

Value = MetricValue
Rows = Mapping[str, Mapping[str, Value]]


@dataclass(frozen=True)
class SummaryView:
    """A summary as the reports show it, with typed values."""

    metrics: list[tuple[str, Value]]
    """Every metric, headline ones first, then the rest by name (counts included)."""
    tables: list[tuple[str, Mapping[str, Value]]] = field(default_factory=list)
    """The methods' run-wide tables (title, name -> value)."""
    breakdowns: dict[str, Breakdown] = field(default_factory=dict)
    """Breakdowns that have rows: the methods' own, then by category, domain, augmentation."""


def ordered(names: Sequence[str] | set[str]) -> list[str]:
    """Names in report order: `HEADLINE_ORDER` first, the rest by name."""
    first = [k for k in HEADLINE_ORDER if k in names]
    return first + sorted(k for k in names if k not in first)


def _views(summary: RunSummary, scorers: Mapping[str, Scorer]) -> list[SectionView]:
    return [
        scorers[name].section_view(data)
        for name, data in sorted((summary.sections or {}).items())
        if name in scorers
    ]


def summary_view(summary: RunSummary, scorers: Mapping[str, Scorer]) -> SummaryView:
    """What the reports show of `summary`, each method's section read by its scorer.

    A section whose scorer is not in `scorers` (a plugin that no longer loads) is left out of
    the view; it stays in summary.json.
    """
    views = _views(summary, scorers)
    items: dict[str, Value] = dict(summary.metrics.values())
    for view in views:
        items.update(view.metrics)
    breakdowns = {b.key: b for view in views for b in view.breakdowns if b.rows}
    generic: dict[str, Mapping[str, MetricValues] | None] = {
        "by_category": summary.by_category,
        "by_domain": summary.by_domain,
        "by_augmentation": summary.by_augmentation,
    }
    for key, title in GROUP_SECTIONS:
        groups = generic[key]
        if groups:
            breakdowns[key] = Breakdown(key, title, {k: v.values() for k, v in groups.items()})
    return SummaryView(
        metrics=[(k, items[k]) for k in ordered(list(items))],
        tables=[table for view in views for table in view.tables],
        breakdowns=breakdowns,
    )


def group_table(rows: Rows) -> tuple[list[str], list[tuple[str, Mapping[str, Value]]]]:
    """Columns and rows of a breakdown: counts first (`COUNT_KEYS` order), then headline
    metrics, then the rest by name.
    """
    listed = [(str(name), values) for name, values in rows.items()]
    keys = {k for _, values in listed for k in values}
    counts = [k for k in COUNT_KEYS if k in keys]
    return counts + ordered({k for k in keys if k not in counts}), listed


def chart_metric(
    columns: Sequence[str], rows: Sequence[tuple[str, Mapping[str, Value]]]
) -> str | None:
    """The metric a bar chart of a breakdown shows: the first headline metric with values."""
    for key in [k for k in HEADLINE_ORDER if k in columns] + list(columns):
        if key in COUNT_KEYS:
            continue
        if any(isinstance(values.get(key), int | float) for _, values in rows):
            return key
    return None


class TrialRow(NamedTuple):
    """pass^k for one k, and how many scenarios had at least k scored trials."""

    k: str
    pass_hat_k: float | None
    scenarios: int | None


def trial_rows(section: TrialStatistics | None) -> list[TrialRow]:
    """The pass^k table of a summary's `trials` section (empty when there is none)."""
    if section is None:
        return []
    return [TrialRow(k, v, section.scenarios_with_k.get(k)) for k, v in section.pass_hat_k.items()]
