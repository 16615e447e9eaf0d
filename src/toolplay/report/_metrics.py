"""Turn a summary's nested metrics into rows a person can read (shared by every report).

Summaries grow with each scoring method (ToolTalk splits, milestone similarity, augmentations,
pass^k over trials), so nothing here knows a fixed list of keys: nested mappings are flattened
to dotted names, `{mean, std}` pairs print as "mean ± std", and known headline metrics are
ordered first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = [
    "COUNT_KEYS",
    "TrialRow",
    "GROUP_SECTIONS",
    "chart_metric",
    "flatten",
    "fmt",
    "group_table",
    "ordered_metrics",
    "trial_count",
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
    ("by_augmentation", "By augmentation"),
)
"""Summary sections that break metrics down by group: (key, title)."""

COUNT_KEYS = frozenset({"scenarios", "conversations", "count", "n", "completed", "errors"})
"""Keys that are counts rather than metrics (listed first in tables, never charted)."""


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
    if isinstance(value, Mapping) and _is_spread(value):
        return f"{fmt(value['mean'])} ± {fmt(value['std'])}"
    return str(value)


def _is_spread(value: Mapping[str, Any]) -> bool:
    return set(value) >= {"mean", "std"} and all(
        isinstance(value[k], int | float | None) for k in ("mean", "std")
    )


def flatten(values: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested metric mappings as `{dotted.name: scalar}`; lists are skipped."""
    flat: dict[str, Any] = {}
    for key, value in values.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and not _is_spread(value):
            flat.update(flatten(value, f"{name}."))
        elif not isinstance(value, list | tuple):
            flat[name] = value
    return flat


def ordered_metrics(metrics: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Flattened metrics, headline ones first, the rest by name."""
    flat = flatten(metrics)
    first = [k for k in HEADLINE_ORDER if k in flat]
    rest = sorted(k for k in flat if k not in first)
    return [(k, flat[k]) for k in first + rest]


def group_table(groups: Mapping[str, Any]) -> tuple[list[str], list[tuple[str, dict[str, Any]]]]:
    """Columns and rows of a breakdown such as `by_category` or `splits`.

    A group is either a flat mapping of metrics, or `{metrics: {...}, counts: {...}, ...}`.
    In the second form only the metrics and the group's size (`conversations`/`scenarios`
    from its counts) become columns: raw counts and other nested records stay in
    summary.json, so the table stays readable.
    """
    rows: list[tuple[str, dict[str, Any]]] = []
    for name, group in groups.items():
        if not isinstance(group, Mapping):
            rows.append((str(name), {"value": group}))
            continue
        values: dict[str, Any] = {}
        if isinstance(group.get("metrics"), Mapping):
            counts = group.get("counts")
            if isinstance(counts, Mapping):
                values.update({k: v for k, v in counts.items() if k in COUNT_KEYS})
            values.update(flatten(group["metrics"]))
        else:
            values.update(flatten(group))
        rows.append((str(name), values))
    keys = {k for _, values in rows for k in values}
    counts = sorted(k for k in keys if k.split(".")[-1] in COUNT_KEYS)
    headline = [k for k in HEADLINE_ORDER if k in keys]
    others = sorted(k for k in keys if k not in counts and k not in headline)
    return counts + headline + others, rows


def chart_metric(columns: list[str], rows: list[tuple[str, dict[str, Any]]]) -> str | None:
    """The metric a bar chart of a breakdown shows: the first headline metric with values."""
    for key in [k for k in HEADLINE_ORDER if k in columns] + columns:
        if key.split(".")[-1] in COUNT_KEYS:
            continue
        if any(isinstance(values.get(key), int | float) for _, values in rows):
            return key
    return None


class TrialRow(NamedTuple):
    """pass^k for one k, and how many scenarios had at least k scored trials."""

    k: str
    pass_hat_k: Any
    scenarios: Any


def trial_count(summary: Mapping[str, Any], config: Mapping[str, Any] | None = None) -> int:
    """Trials per scenario: `trials` is a count, or a section with `k` (pass^k summaries)."""
    value = summary.get("trials")
    if isinstance(value, Mapping):
        value = value.get("k")
    if not isinstance(value, int) or isinstance(value, bool):
        value = (config or {}).get("trials")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def trial_rows(summary: Mapping[str, Any]) -> list[TrialRow]:
    """The pass^k table of a summary's `trials` section (empty when there is none)."""
    section = summary.get("trials")
    if not isinstance(section, Mapping):
        return []
    passes = section.get("pass_hat_k")
    counts = section.get("scenarios_with_k")
    if not isinstance(passes, Mapping):
        return []
    counts = counts if isinstance(counts, Mapping) else {}
    return [TrialRow(str(k), v, counts.get(k)) for k, v in passes.items()]
