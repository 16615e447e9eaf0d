"""Terminal output (rich): the summary printed after every run, and `toolplay compare`.

Everything printed from run data goes through `Text` or `highlight=False` with markup off,
so a model's reply or an error message can never inject rich markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from toolplay.analysis._compare import Comparison, stat_cells, system_cells
from toolplay.analysis._metrics import (
    COUNT_KEYS,
    GROUP_SECTIONS,
    fmt,
    group_table,
    ordered_metrics,
    summary_breakdowns,
    trial_rows,
)
from toolplay.report._fit import fits, print_fitted
from toolplay.report._intervals import ci_header, interval_text, with_intervals
from toolplay.report._terminal_stats import render_significance, render_trial_power
from toolplay.runs import RunSummary

__all__ = ["render_comparison", "render_summary"]


def _table(title: str, *columns: str, numeric_from: int = 1) -> Table:
    """Name columns, then value columns; printed through `_fit`, nothing is ever folded."""
    table = Table(title=title, title_justify="left", title_style="bold", header_style="dim")
    for i, column in enumerate(columns):
        # Spaces let long metric names in headers wrap between words ("slot / precision").
        table.add_column(
            column.replace("_", " "),
            justify="right" if i >= numeric_from else "left",
        )
    return table


def _row(table: Table, *cells: str) -> None:
    table.add_row(*(Text(c) for c in cells))


def _breakdown(
    title: str, key: str, cells: tuple[Sequence[str], Sequence[tuple[str, Mapping[str, Any]]]]
) -> Table:
    """A breakdown table: one row per group, one column per metric (and interval)."""
    columns, rows = cells
    table = _table(title, key.removeprefix("by_").rstrip("s"), *columns)
    for name, values in rows:
        _row(table, name, *(fmt(values.get(c)) for c in columns))
    return table


def render_summary(summary: RunSummary, console: Console) -> None:
    """Print headline metrics, breakdowns, errors, terminations and token cost.

    Args:
        summary: A run's summary (as in summary.json); absent sections are skipped.
        console: Where to print.
    """
    title = Text.assemble(
        ("toolplay", "bold"),
        f" · {summary.suite} · {summary.assistant} · {summary.mode} · user {summary.user}",
    )
    console.print(title)
    uncertainty = summary.uncertainty
    ci = [ci_header(uncertainty)] if uncertainty and uncertainty.metrics else []
    head = _table("Results", "metric", "value", *ci)
    trials = summary.trials.k
    _row(head, "scenario trials" if trials > 1 else "scenarios", fmt(summary.scenarios))
    _row(head, "completed", fmt(summary.completed))
    _row(head, "infrastructure errors", fmt(summary.errors))
    for key, value in ordered_metrics(summary.metrics):
        if key not in COUNT_KEYS:  # counts are the rows above
            interval = uncertainty.metrics.get(key) if uncertainty else None
            cell = interval_text(interval) if interval else ""  # counts have none
            _row(head, key, fmt(value), *([cell] if ci else []))
    headline = summary.metrics.values()
    for key, interval in uncertainty.metrics.items() if uncertainty else ():
        if key not in headline:  # a scorer that declares no parts: its mean scenario score
            _row(head, key, fmt(interval.estimate), interval_text(interval))
    print_fitted(console, head)
    titles = dict(GROUP_SECTIONS)
    for key, groups in summary_breakdowns(summary).items():
        columns, rows = group_table(groups)
        cells = with_intervals(
            columns,
            rows,
            uncertainty.breakdowns.get(key) if uncertainty else None,
            ci_header(uncertainty) if uncertainty else "",
        )
        table = _breakdown(titles[key], key, cells)
        if not fits(table, console) and list(cells[0]) != list(columns):
            # Without room for the intervals, the table goes without (then pages if need be).
            table = _breakdown(titles[key], key, (columns, rows))
            note = "intervals left out at this width (in summary.json and the HTML report)"
            table.caption, table.caption_justify = note, "left"
        print_fitted(console, table)
    if summary.counts is not None:
        parts = [f"{k} {fmt(v)}" for k, v in summary.counts.model_dump().items()]
        console.print(Text("counts: " + " · ".join(parts)), soft_wrap=True)
    if summary.error_types:
        parts = [f"{k} {fmt(v)}" for k, v in summary.error_types.items()]
        console.print(Text("error types: " + " · ".join(parts)), soft_wrap=True)
    _render_trials(summary, console)
    render_trial_power(summary, console)
    _render_termination(summary, console)
    usage = summary.usage
    if usage.calls:
        console.print(
            Text(
                f"tokens: {fmt(usage.prompt_tokens)} prompt + "
                f"{fmt(usage.completion_tokens)} completion "
                f"in {fmt(usage.calls)} model call(s)"
            )
        )
    for error in summary.error_list:
        message = (error.error or "").strip().splitlines()
        line = Text("error ", style="red")
        line.append(f"{error.scenario_id} (trial {error.trial}): ")
        line.append(message[0] if message else "(no message)")
        console.print(line, soft_wrap=True)


def _render_trials(summary: RunSummary, console: Console) -> None:
    rows = trial_rows(summary.trials)
    if not rows or summary.trials.k < 2:
        return  # with one trial pass^1 is the perfect rate and there is no spread to show
    section = summary.trials
    uncertainty = summary.uncertainty
    passes = uncertainty.pass_hat_k if uncertainty else {}
    ci = [ci_header(uncertainty)] if uncertainty and passes else []
    table = _table("Trials: pass^k", "k", "pass^k", *ci, "scenarios with k trials")
    for row in rows:
        interval = [interval_text(passes.get(row.k))] if ci else []
        _row(table, row.k, fmt(row.pass_hat_k), *interval, fmt(row.scenarios))
    print_fitted(console, table)
    if section.score_mean is not None:
        spread = f"{fmt(section.score_mean)} ± {fmt(section.score_std)}"
        console.print(Text(f"score over trials: {spread} (mean ± std of per-trial means)"))


def _render_termination(summary: RunSummary, console: Console) -> None:
    counts = summary.termination
    total = sum(counts.values())
    if not total:
        return
    table = _table("How conversations ended", "reason", "count", "share")
    for reason, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        _row(table, reason, fmt(count), f"{count / total:.0%}")
    print_fitted(console, table)


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
