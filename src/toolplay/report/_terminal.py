"""Terminal output (rich): the summary printed after every run, and `toolplay compare`.

Everything printed from run data goes through `Text` or `highlight=False` with markup off,
so a model's reply or an error message can never inject rich markup.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from toolplay.report._compare import Comparison, stat_cells, system_cells
from toolplay.report._intervals import ci_header, interval_text, summary_uncertainty, with_intervals
from toolplay.report._metrics import (
    COUNT_KEYS,
    GROUP_SECTIONS,
    flatten,
    fmt,
    group_table,
    ordered_metrics,
    trial_count,
    trial_rows,
)
from toolplay.report._terminal_stats import render_significance, render_trial_power
from toolplay.runs import RunSummary

__all__ = ["render_comparison", "render_summary"]


def _table(title: str, *columns: str, numeric_from: int = 1) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", header_style="dim")
    for i, column in enumerate(columns):
        # Spaces let long metric names wrap instead of being cut ("milestone…").
        table.add_column(
            column.replace("_", " "),
            justify="right" if i >= numeric_from else "left",
            no_wrap=i < numeric_from,
        )
    return table


def _row(table: Table, *cells: str) -> None:
    table.add_row(*(Text(c) for c in cells))


def render_summary(summary: RunSummary | dict[str, Any], console: Console) -> None:
    """Print headline metrics, breakdowns, errors, terminations and token cost.

    Args:
        summary: A run's summary (as in summary.json); absent sections are skipped.
        console: Where to print.
    """
    if isinstance(summary, RunSummary):
        summary = summary.to_json()
    title = Text.assemble(
        ("toolplay", "bold"),
        f" · {summary.get('suite', '?')} · {summary.get('assistant', '?')}"
        f" · {summary.get('mode', '?')} · user {summary.get('user', '?')}",
    )
    console.print(title)
    uncertainty = summary_uncertainty(summary)
    ci = [ci_header(uncertainty)] if uncertainty and uncertainty.metrics else []
    head = _table("Results", "metric", "value", *ci)
    trials = trial_count(summary)
    _row(head, "scenario trials" if trials > 1 else "scenarios", fmt(summary.get("scenarios")))
    _row(head, "completed", fmt(summary.get("completed")))
    _row(head, "infrastructure errors", fmt(summary.get("errors")))
    for key, value in ordered_metrics(summary.get("metrics") or {}):
        if key not in COUNT_KEYS:  # counts are the rows above
            interval = uncertainty.metrics.get(key) if uncertainty else None
            cell = interval_text(interval) if interval else ""  # counts have none
            _row(head, key, fmt(value), *([cell] if ci else []))
    headline = summary.get("metrics") or {}
    for key, interval in uncertainty.metrics.items() if uncertainty else ():
        if key not in headline:  # a scorer that declares no parts: its mean scenario score
            _row(head, key, fmt(interval.estimate), interval_text(interval))
    console.print(head)
    for key, title_text in GROUP_SECTIONS:
        groups = summary.get(key)
        if not isinstance(groups, dict) or not groups:
            continue
        columns, rows = group_table(groups)
        if uncertainty is not None:
            intervals = uncertainty.breakdowns.get(key)
            columns, rows = with_intervals(columns, rows, intervals, ci_header(uncertainty))
        table = _table(title_text, key.removeprefix("by_").rstrip("s"), *columns)
        for name, values in rows:
            _row(table, name, *(fmt(values.get(c)) for c in columns))
        console.print(table)
    for key in ("counts", "error_types"):
        value = summary.get(key)
        if isinstance(value, dict) and value:
            parts = [f"{k} {fmt(v)}" for k, v in flatten(value).items()]
            console.print(Text(f"{key.replace('_', ' ')}: " + " · ".join(parts)), soft_wrap=True)
    _render_trials(summary, console)
    render_trial_power(summary, console)
    _render_termination(summary, console)
    usage = summary.get("usage") or {}
    if usage.get("calls"):
        console.print(
            Text(
                f"tokens: {fmt(usage.get('prompt_tokens', 0))} prompt + "
                f"{fmt(usage.get('completion_tokens', 0))} completion "
                f"in {fmt(usage['calls'])} model call(s)"
            )
        )
    for error in summary.get("error_list") or []:
        message = str(error.get("error") or "").strip().splitlines()
        line = Text("error ", style="red")
        line.append(f"{error.get('scenario_id')} (trial {error.get('trial')}): ")
        line.append(message[0] if message else "(no message)")
        console.print(line, soft_wrap=True)


def _render_trials(summary: dict[str, Any], console: Console) -> None:
    rows = trial_rows(summary)
    if not rows or trial_count(summary) < 2:
        return  # with one trial pass^1 is the perfect rate and there is no spread to show
    section = summary["trials"]
    uncertainty = summary_uncertainty(summary)
    passes = uncertainty.pass_hat_k if uncertainty else {}
    ci = [ci_header(uncertainty)] if uncertainty and passes else []
    table = _table("Trials: pass^k", "k", "pass^k", *ci, "scenarios with k trials")
    for row in rows:
        interval = [interval_text(passes.get(row.k))] if ci else []
        _row(table, row.k, fmt(row.pass_hat_k), *interval, fmt(row.scenarios))
    console.print(table)
    if section.get("score_mean") is not None:
        spread = fmt({"mean": section.get("score_mean"), "std": section.get("score_std")})
        console.print(Text(f"score over trials: {spread} (mean ± std of per-trial means)"))


def _render_termination(summary: dict[str, Any], console: Console) -> None:
    counts = summary.get("termination") or {}
    total = sum(int(v) for v in counts.values())
    if not total:
        return
    table = _table("How conversations ended", "reason", "count", "share")
    for reason, count in sorted(counts.items(), key=lambda kv: (-int(kv[1]), kv[0])):
        _row(table, reason, fmt(int(count)), f"{int(count) / total:.0%}")
    console.print(table)


def render_comparison(comparison: Comparison, console: Console) -> None:
    """Print runs side by side, per-category scores and the pairwise agreement.

    Args:
        comparison: The result of `compare_runs`.
        console: Where to print.
    """
    side = _table("Runs side by side", "", *comparison.labels)
    for name, cells in comparison.metric_rows:
        _row(side, name, *cells)
    console.print(side)
    if comparison.category_rows:
        table = _table(
            f"By category ({comparison.category_metric})", "category", *comparison.labels
        )
        for name, cells in comparison.category_rows:
            _row(table, name, *cells)
        console.print(table)
    if comparison.systems:
        system = _table(
            f"System-level agreement (one point per assistant: {comparison.system_metric})",
            "method a",
            "method b",
            "assistants",
            "Pearson",
            "ICC(3,1)",
            numeric_from=2,
        )
        for agreement in comparison.systems:
            numbers = system_cells(agreement)
            _row(
                system,
                agreement.left,
                agreement.right,
                numbers["n"],
                numbers["pearson"],
                numbers["icc"],
            )
        console.print(system)
        points = _table(
            "System-level points", "assistant", "method a", "method b", "a", "b", numeric_from=3
        )
        for agreement in comparison.systems:
            for assistant, x, y in agreement.points:
                _row(points, assistant, agreement.left, agreement.right, fmt(x), fmt(y))
        console.print(points)
    agree = _table(
        "Agreement per scenario (per dialogue, mean over trials)",
        "a",
        "b",
        "n",
        "Pearson",
        "Spearman",
        "ICC(3,1)",
        numeric_from=2,
    )
    for pair in comparison.pairs:
        stats = stat_cells(pair.stats)
        _row(
            agree,
            pair.left,
            pair.right,
            stats["n"],
            stats["pearson"],
            stats["spearman"],
            stats["icc"],
        )
    console.print(agree)
    console.print(
        Text(
            "'-': undefined (fewer than two shared scenarios, or one side scores them all alike)",
            style="dim",
        )
    )
    render_significance(comparison.significance, console)
