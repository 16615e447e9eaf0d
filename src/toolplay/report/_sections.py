"""The parts of the run report built from the summary: breakdowns, charts, error list.

Each returns plain data (or inline SVG markup) for `report.html.jinja`; anything absent from
the summary is skipped or derived from the per-scenario entries instead.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from markupsafe import Markup

from toolplay.report._charts import Bar, bar_chart, column_chart
from toolplay.report._data import RunData
from toolplay.report._metrics import GROUP_SECTIONS, chart_metric, group_table

__all__ = ["breakdowns", "distribution_charts", "error_items", "group_chart", "termination_chart"]


def breakdowns(run: RunData) -> dict[str, dict[str, Any]]:
    """Breakdowns from the summary; by augmentation derived from entries when absent."""
    groups = {
        key: value
        for key, _ in GROUP_SECTIONS
        if isinstance(value := run.summary.get(key), dict) and value
    }
    if "by_augmentation" not in groups:
        scores: dict[str, list[float]] = {}
        for entry in run.entries:
            if entry["augmentation"] and entry["score"] is not None:
                scores.setdefault(entry["augmentation"], []).append(entry["score"])
        if scores:
            groups["by_augmentation"] = {
                name: {"scenarios": len(v), "score": sum(v) / len(v)}
                for name, v in sorted(scores.items())
            }
    return groups


def group_chart(title: str, groups: dict[str, Any]) -> dict[str, Any] | None:
    columns, rows = group_table(groups)
    metric = chart_metric(columns, rows)
    if metric is None:
        return None
    count_key = next(
        (c for c in columns if c.split(".")[-1] in ("scenarios", "conversations")), None
    )
    bars = []
    for name, cells in rows:
        raw = cells.get(metric)
        value = float(raw) if isinstance(raw, int | float) else None
        text = "n/a" if value is None else f"{value:.3f}"
        if count_key and cells.get(count_key) is not None:
            text += f"   n={cells[count_key]}"
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
    scored = [e["score"] for e in run.entries if e["score"] is not None]
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
    turns = [e["turn_count"] for e in run.entries if e["messages"]]
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
    counts = run.summary.get("termination")
    if not isinstance(counts, dict) or not counts:
        counts = Counter(str(e["termination"]) for e in run.entries)
    total = sum(int(v) for v in counts.values())
    if not total:
        return None
    bars = [Bar(str(k), int(v), f"{v} ({int(v) / total:.0%})") for k, v in sorted(counts.items())]
    return bar_chart(bars, maximum=float(total), title="How conversations ended")


def error_items(run: RunData) -> list[dict[str, Any]]:
    listed = run.summary.get("error_list")
    if not isinstance(listed, list):
        listed = [
            {"scenario_id": e["id"], "trial": e["trial"], "error": e["error"]}
            for e in run.entries
            if e["status"] == "error"
        ]
    errors = []
    for item in listed:
        text = str(item.get("error") or "(no message recorded)")
        lines = text.strip().splitlines() or [""]
        errors.append(
            {
                "scenario_id": str(item.get("scenario_id")),
                "trial": item.get("trial", 0),
                "text": text,
                "first_line": lines[0],
                "rest": len(lines) > 1,
            }
        )
    return errors
