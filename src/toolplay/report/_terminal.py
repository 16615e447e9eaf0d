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

from toolplay.analysis import (
    COUNT_KEYS,
    Comparison,
    group_table,
    run_scorers,
    summary_view,
    trial_rows,
)
from toolplay.report._fit import fits, print_fitted
from toolplay.report._format import fmt, stat_cells, system_cells
from toolplay.report._intervals import ci_header, interval_text, with_intervals
from toolplay.report._terminal_stats import render_significance, render_trial_power
from toolplay.report._user_errors import render_user_errors, render_user_models
from toolplay.runs import RunSummary
from toolplay.scoring import Scorer

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


def render_summary(
    summary: RunSummary, console: Console, scorers: Mapping[str, Scorer] | None = None
) -> None:
    """Print headline metrics, breakdowns, errors, terminations and token cost.

    Args:
        summary: A run's summary (as in summary.json); absent sections are skipped.
        console: Where to print.
        scorers: The catalog's scorers, which say how each method's section reads (default:
            the built-ins' and the installed plugins').
    """
    view = summary_view(summary, scorers if scorers is not None else run_scorers([]))
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
    for key, value in view.metrics:
        if key not in COUNT_KEYS:  # counts are the rows above
            interval = uncertainty.metrics.get(key) if uncertainty else None
            cell = interval_text(interval) if interval else ""  # counts have none
            _row(head, key, fmt(value), *([cell] if ci else []))
    headline = summary.metrics.values()
    for key, interval in uncertainty.metrics.items() if uncertainty else ():
        if key not in headline:  # a scorer that declares no parts: its mean scenario score
            _row(head, key, fmt(interval.estimate), interval_text(interval))
    print_fitted(console, head)
    for key, breakdown in view.breakdowns.items():
        columns, rows = group_table(breakdown.rows)
        cells = with_intervals(
            columns,
            rows,
            uncertainty.breakdowns.get(key) if uncertainty else None,
            ci_header(uncertainty) if uncertainty else "",
        )
        table = _breakdown(breakdown.title, key, cells)
        if not fits(table, console) and list(cells[0]) != list(columns):
            # Without room for the intervals, the table goes without (then pages if need be).
            table = _breakdown(breakdown.title, key, (columns, rows))
            note = "intervals left out at this width (in summary.json and the HTML report)"
            table.caption, table.caption_justify = note, "left"
        print_fitted(console, table)
    for name, values in view.tables:
        parts = [f"{k} {fmt(v)}" for k, v in values.items()]
        console.print(Text(f"{name.lower()}: " + " · ".join(parts)), soft_wrap=True)
    _render_trials(summary, console)
    render_trial_power(summary, console)
    _render_termination(summary, console)
    render_user_errors(summary, console)
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


def _table_width(columns: Sequence[Sequence[str]]) -> int:
    """A rich table's width with every cell whole: each column's widest cell, padding 1 on
    either side, and the borders.
    """
    return sum(max(map(len, column)) + 3 for column in columns) + 1


def _pages(first: Sequence[str], columns: Sequence[Sequence[str]], width: int) -> list[list[int]]:
    """Run columns grouped into pages that fit `width` beside the first column."""
    pages: list[list[int]] = [[]]
    for index, column in enumerate(columns):
        page = pages[-1]
        if page and _table_width([first, *(columns[i] for i in page), column]) > width:
            pages.append([])
        pages[-1].append(index)
    return pages


def _side_by_side(
    console: Console,
    title: str,
    first: str,
    labels: Sequence[str],
    rows: Sequence[tuple[str, Sequence[str]]],
    *,
    legend: bool = True,
) -> None:
    """Runs as columns; when their names do not fit the terminal whole, the columns are
    numbered (a legend above names them) and paged, so no name or value is ever cut.
    """
    names = [first, *(name for name, _ in rows)]
    cells = [[label, *(row[i] for _, row in rows)] for i, label in enumerate(labels)]
    if _table_width([names, *cells]) <= console.width:
        table = _table(title, first, *labels)
        for name, values in rows:
            _row(table, name, *values)
        console.print(table)
        return
    keys = [str(i + 1) for i in range(len(labels))]
    if legend:
        console.print(Text("Runs (numbered below)", style="bold"))
        for key, label in zip(keys, labels, strict=True):
            line = Text(f"  {key.rjust(len(keys[-1]))}  ")
            line.append(label)
            console.print(line, overflow="fold")
    numbered = [[key, *column[1:]] for key, column in zip(keys, cells, strict=True)]
    for page in _pages(names, numbered, console.width):
        span = f"{keys[page[0]]}-{keys[page[-1]]}" if len(page) > 1 else keys[page[0]]
        console.print(Text(f"{title}, runs {span} of {len(labels)}", style="bold"))
        table = _table("", first, *(keys[i] for i in page))
        table.title = None
        for name, values in rows:
            _row(table, name, *(values[i] for i in page))
        for column in table.columns[1:]:
            column.no_wrap = True
        console.print(table)


def _cells(rows: Sequence[tuple[str, Sequence[Any]]]) -> list[tuple[str, list[str]]]:
    """Typed rows of a comparison, formatted for a table."""
    return [(name, [fmt(value) for value in values]) for name, values in rows]


def render_comparison(comparison: Comparison, console: Console) -> None:
    """Print runs side by side, per-category scores and the pairwise agreement.

    Many runs stay readable at any width: the side-by-side tables number and page their
    columns when the run names do not fit whole (`_side_by_side`).

    Args:
        comparison: The result of `compare_runs`.
        console: Where to print.
    """
    if comparison.suite_version != "none":
        console.print(Text(f"suite version: {comparison.suite_version}"), soft_wrap=True)
    _side_by_side(
        console, "Runs side by side", "", comparison.labels, _cells(comparison.metric_rows)
    )
    if comparison.category_rows:
        _side_by_side(
            console,
            f"By category ({comparison.category_metric})",
            "category",
            comparison.labels,
            _cells(comparison.category_rows),
            legend=False,
        )
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
    within = comparison.pairing == "within_assistant"
    agree = _table(
        "Agreement per scenario (per dialogue, mean over trials"
        + ("; each assistant's runs under two methods)" if within else ")"),
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
    render_user_models(comparison.user_models, console)
