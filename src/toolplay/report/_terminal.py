"""The terminal summary printed after every run (rich tables)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return "-" if value is None else str(value)


def render_summary(summary: dict[str, Any], console: Console) -> None:
    """Print headline metrics, breakdowns, errors, terminations and token cost."""
    head = Table(
        title=f"toolplay · {summary.get('suite')} · {summary.get('assistant')}", show_header=True
    )
    head.add_column("metric")
    head.add_column("value", justify="right")
    for key in ("scenarios", "completed", "errors"):
        head.add_row(key, _fmt(summary.get(key)))
    for key, value in (summary.get("metrics") or {}).items():
        if not isinstance(value, dict):
            head.add_row(key, _fmt(value))
    console.print(head)
    for section in ("splits", "by_category", "by_augmentation"):
        groups = summary.get(section) or {}
        if not groups:
            continue
        rows = {
            name: (g.get("metrics", g) if isinstance(g, dict) else {}) for name, g in groups.items()
        }
        keys = sorted({k for r in rows.values() for k, v in r.items() if not isinstance(v, dict)})
        table = Table(section.replace("_", " "), *keys, title=section.replace("_", " "))
        for name, values in rows.items():
            table.add_row(name, *(_fmt(values.get(k)) for k in keys))
        console.print(table)
    terminations = summary.get("termination") or {}
    if terminations:
        console.print("termination: " + ", ".join(f"{k} {v}" for k, v in terminations.items()))
    usage = summary.get("usage") or {}
    if usage.get("calls"):
        console.print(
            f"tokens: {usage.get('prompt_tokens', 0)} prompt + "
            f"{usage.get('completion_tokens', 0)} completion in {usage['calls']} call(s)"
        )
    for error in summary.get("error_list") or []:
        console.print(
            f"[red]error[/red] {error['scenario_id']} (trial {error['trial']}): "
            f"{str(error['error']).splitlines()[0] if error['error'] else ''}",
            highlight=False,
            soft_wrap=True,
        )
