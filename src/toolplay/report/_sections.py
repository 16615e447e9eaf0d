"""The parts of the run report built from the summary: breakdowns, charts, error list.

Each returns plain data (or inline SVG markup) for `report.html.jinja`, read from the typed
summary; without a summary (a run directory without summary.json) what can be is derived from
the per-scenario entries instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from toolplay.analysis import COUNT_KEYS, RunData, Value, chart_metric, group_table
from toolplay.report._charts import Bar, bar_chart, column_chart
from toolplay.report._format import fmt, plural
from toolplay.runs import ErrorEntry

__all__ = ["distribution_charts", "error_items", "group_chart", "termination_chart"]


def group_chart(title: str, groups: Mapping[str, Mapping[str, Value]]) -> dict[str, Any] | None:
    """A bar chart of a breakdown's main metric, each bar labelled with its group's size."""
    columns, rows = group_table(groups)
    metric = chart_metric(columns, rows)
    if metric is None:
        return None
    count_key = next((c for c in COUNT_KEYS if c in columns), None)
    bars = []
    for name, cells in rows:
        raw = cells.get(metric)
        value = float(raw) if isinstance(raw, int | float) else None
        text = "n/a" if value is None else f"{value:.3f}"
        count = cells.get(count_key) if count_key else None
        if count_key and isinstance(count, int):
            text += f"   {plural(count, count_key.removesuffix('s'))}"
        bars.append(Bar(name, value, text))
    known = [b.value for b in bars if b.value is not None]
    top = 1.0 if known and max(known) <= 1.0 and min(known) >= 0.0 else None
    return {
        "title": title,
        "note": metric.replace("_", " "),
        "svg": bar_chart(bars, maximum=top, title=title),
    }


def distribution_charts(run: RunData) -> list[dict[str, Any]]:
    charts: list[dict[str, Any]] = []
    scored = [e.value for e in run.entries if e.value is not None]
    if scored:
        bins = [("0", 0), ("0–.25", 0), (".25–.5", 0), (".5–.75", 0), (".75–1", 0), ("1", 0)]
        counts = Counter[int]()
        for s in scored:
            counts[0 if s <= 0 else 5 if s >= 1 else 1 + min(int(s * 4), 3)] += 1
        columns = [(label, counts[i]) for i, (label, _) in enumerate(bins)]
        charts.append(
            {
                "title": "Score distribution",
                "note": "scored conversations",
                "svg": column_chart(columns, title="Score distribution"),
            }
        )
    turns = [e.turn_count for e in run.entries if e.trajectory.messages]
    if turns:
        low, high = min(turns), max(turns)
        width = max(1, -(-(high - low + 1) // 16))
        columns = []
        for start in range(low, high + 1, width):
            end = start + width - 1
            label = str(start) if width == 1 else f"{start}–{end}"
            columns.append((label, sum(start <= t <= end for t in turns)))
        charts.append(
            {
                "title": "Turn count distribution",
                "note": "messages between user, assistant and tools (system excluded)",
                "svg": column_chart(columns, title="Turn count distribution"),
            }
        )
    return charts


def termination_chart(run: RunData) -> Markup | None:
    counts: Mapping[str, int] = (
        run.summary.termination
        if run.summary is not None
        else Counter(e.trajectory.termination for e in run.entries)
    )
    total = sum(counts.values())
    if not total:
        return None
    bars = [Bar(k, v, f"{fmt(v)} ({v / total:.0%})") for k, v in sorted(counts.items())]
    return bar_chart(bars, maximum=float(total), title="How conversations ended")


def error_items(run: RunData) -> list[dict[str, Any]]:
    """The infrastructure errors: each trial with its message's first line and the rest."""
    listed = (
        run.summary.error_list
        if run.summary is not None
        else [
            ErrorEntry(scenario_id=e.id, trial=e.trial, error=e.error)
            for e in run.entries
            if e.status == "error"
        ]
    )
    errors = []
    for item in listed:
        text = item.error or "(no message recorded)"
        lines = text.strip().splitlines() or [""]
        errors.append(
            {
                "scenario_id": item.scenario_id,
                "trial": item.trial,
                "text": text,
                "first_line": lines[0],
                "rest": len(lines) > 1,
            }
        )
    return errors
