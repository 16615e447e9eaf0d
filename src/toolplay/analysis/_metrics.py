"""Turn a summary's typed metrics into rows a person can read (shared by every report).

Metrics come as `MetricValues` (each method names its own, declared with its scorer in the
catalog) plus their structured parts (AutoDE's failure counts and spread over trials); a
breakdown row is `MetricValues` (with its `scenarios`/`trials` counts) or a ToolTalk
`ToolTalkGroup`. Headline metrics are ordered first; counts are listed apart and never charted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from toolplay.runs import RunSummary, TrialStatistics
from toolplay.scoring import MetricValues, ToolTalkGroup, TrialSpread

__all__ = [
    "COUNT_KEYS",
    "GROUP_SECTIONS",
    "HEADLINE_ORDER",
    "TrialRow",
    "chart_metric",
    "fmt",
    "group_table",
    "metric_items",
    "ordered_metrics",
    "plural",
    "summary_breakdowns",
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
    ("splits", "By split"),
    ("by_category", "By category"),
    ("by_domain", "By domain"),
    ("by_augmentation", "By augmentation"),
)
"""Summary sections that break metrics down by group: (key, title)."""

COUNT_KEYS = ("scenarios", "trials", "conversations", "dialogues")
"""Names that are counts rather than metrics (listed first in tables, never charted):
`scenarios` distinct scenarios, `trials` scored scenario trials, `conversations` (ToolTalk)
and `dialogues` (AutoDE) scored trials in the published methods' words."""

Value = float | int | TrialSpread | None


def fmt(value: Any) -> str:
    """Format one metric value: 3 decimals for fractions, thousands for counts, '-' for none."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3f}"
    if isinstance(value, TrialSpread):
        if value.std is None:  # one trial: a mean, no spread to show
            return f"{fmt(value.mean)} (1 trial)"
        return f"{fmt(value.mean)} ± {fmt(value.std)}"
    return str(value)


def plural(count: int, noun: str) -> str:
    """`1 scenario`, `2 scenarios`, `1,104 scenarios` (nouns that take an `s`)."""
    return f"{fmt(count)} {noun}{'' if count == 1 else 's'}"


def metric_items(values: MetricValues) -> dict[str, Value]:
    """Every metric by name: the plain values, then the structured parts as dotted names
    (`failures.never_called`, `over_trials.slot_f1` as mean ± std).
    """
    items: dict[str, Value] = dict(values.values())
    for part in ("failures", "failure_reasons"):
        counts: Mapping[str, int] | None = getattr(values, part)
        items.update({f"{part}.{k}": v for k, v in (counts or {}).items()})
    items.update({f"over_trials.{k}": v for k, v in (values.over_trials or {}).items()})
    return items


def _order(names: set[str] | list[str]) -> list[str]:
    first = [k for k in HEADLINE_ORDER if k in names]
    return first + sorted(k for k in names if k not in first)


def ordered_metrics(values: MetricValues | None) -> list[tuple[str, Value]]:
    """Every metric, headline ones first, the rest by name (counts included)."""
    if values is None:
        return []
    items = metric_items(values)
    return [(k, items[k]) for k in _order(list(items))]


Groups = Mapping[str, MetricValues] | Mapping[str, ToolTalkGroup]


def summary_breakdowns(summary: RunSummary) -> dict[str, Groups]:
    """The summary's breakdowns that have rows, in `GROUP_SECTIONS` order."""
    sections: dict[str, Groups | None] = {
        "splits": summary.splits,
        "by_category": summary.by_category,
        "by_domain": summary.by_domain,
        "by_augmentation": summary.by_augmentation,
    }
    return {key: value for key, _ in GROUP_SECTIONS if (value := sections[key])}


def _row(group: MetricValues | ToolTalkGroup) -> dict[str, Value]:
    if isinstance(group, ToolTalkGroup):
        # The group's size and its metrics: raw counts stay in summary.json.
        return {"conversations": group.counts.conversations, **metric_items(group.metrics)}
    return metric_items(group)


def group_table(groups: Groups) -> tuple[list[str], list[tuple[str, dict[str, Value]]]]:
    """Columns and rows of a breakdown such as `by_category` or `splits`: counts first
    (`COUNT_KEYS` order), then headline metrics, then the rest by name.
    """
    rows = [(str(name), _row(group)) for name, group in groups.items()]
    keys = {k for _, values in rows for k in values}
    counts = [k for k in COUNT_KEYS if k in keys]
    return counts + _order({k for k in keys if k not in counts}), rows


def chart_metric(columns: list[str], rows: list[tuple[str, dict[str, Value]]]) -> str | None:
    """The metric a bar chart of a breakdown shows: the first headline metric with values."""
    for key in [k for k in HEADLINE_ORDER if k in columns] + columns:
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
