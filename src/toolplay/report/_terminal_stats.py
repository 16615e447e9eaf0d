"""Terminal output of the statistics: trial power after a run, significance in `compare`.

Like `_terminal`, every value goes out as `Text`, so nothing from a run is read as markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from toolplay.analysis import Significance
from toolplay.report._fit import print_fitted
from toolplay.report._format import fmt
from toolplay.report._intervals import method_note, power_rows, power_sentences
from toolplay.report._significance_cells import difference_cells, listed_ids, significance_note
from toolplay.runs import RunSummary
from toolplay.stats import PairedDifference

__all__ = ["render_significance", "render_trial_power"]


def _table(title: str, *columns: str, numeric_from: int = 1) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", header_style="dim")
    for i, column in enumerate(columns):
        # fold rather than cut: a run's name is never shortened to "static:oracl…"
        table.add_column(column, justify="right" if i >= numeric_from else "left", overflow="fold")
    return table


def _note(console: Console, text: str) -> None:
    """A dim sentence, wrapped between words at the terminal's width."""
    console.print(Text(text, style="dim"))


def render_trial_power(summary: RunSummary, console: Console) -> None:
    """Print how many trials are enough (runs with several trials), and how intervals were made.

    Args:
        summary: A run's summary; nothing is printed without an `uncertainty` section.
        console: Where to print.
    """
    uncertainty = summary.uncertainty
    if uncertainty is None:
        return
    power = uncertainty.trials
    if power is not None:
        table = _table(
            "How many trials are enough",
            "trials per scenario",
            "SE of mean",
            "detectable (bound)",
            "detectable (floor)",
        )
        for row in power_rows(power):
            table.add_row(*(Text(cell) for cell in row))
        print_fitted(console, table)
        for sentence in power_sentences(power):
            _note(console, sentence)
    if uncertainty.metrics:
        _note(console, method_note(uncertainty))


def _difference_table(
    title: str, first: str, rows: Sequence[tuple[str, PairedDifference]], ci: str
) -> Table:
    table = _table(title, first, "n", "a", "b", "a - b", ci, "p", "p (Holm)")
    for name, difference in rows:
        cells = difference_cells(difference)
        table.add_row(
            *(
                Text(c)
                for c in (
                    name,
                    cells["n"],
                    cells["left"],
                    cells["right"],
                    cells["difference"],
                    cells["ci"],
                    cells["p"],
                    cells["p_holm"],
                )
            )
        )
    return table


def render_significance(significance: Significance | None, console: Console) -> None:
    """Print paired differences (two runs) or pairwise differences and a ranking (more).

    Args:
        significance: `Comparison.significance`; nothing is printed when it is None.
        console: Where to print.
    """
    if significance is None:
        return
    ci = f"{significance.settings.level * 100:g}% CI"
    pair = significance.pair
    if pair is not None:
        title = f"Paired differences: a = {pair.left}, b = {pair.right}"
        rows = [(d.metric, d) for d in pair.metrics]
        print_fitted(console, _difference_table(title, "metric", rows, ci))
        if pair.categories:
            title = f"Paired differences by category ({pair.category_metric})"
            print_fitted(console, _difference_table(title, "category", list(pair.categories), ci))
        for label, ids in ((pair.left, pair.only_left), (pair.right, pair.only_right)):
            if ids:
                console.print(
                    Text(f"only in {label} ({len(ids)}, not compared): {listed_ids(ids)}"),
                    soft_wrap=True,
                )
    ranking = significance.ranking
    if ranking is not None:
        table = _table(
            f"Pairwise differences in {ranking.metric} ({ranking.scenarios} scenarios all "
            "runs scored)",
            "a",
            "b",
            "a - b",
            ci,
            "p",
            "p (Holm)",
            numeric_from=2,
        )
        for a, b, difference in ranking.pairs:
            cells = difference_cells(difference)
            table.add_row(
                *(
                    Text(c)
                    for c in (a, b, cells["difference"], cells["ci"], cells["p"], cells["p_holm"])
                )
            )
        print_fitted(console, table, keep=2)
        board = _table("Ranking", "run", "rank", ranking.metric, "significantly better than")
        for run in ranking.ranking:
            board.add_row(
                Text(run.label),
                Text(str(run.rank)),
                Text(fmt(run.estimate)),
                Text(", ".join(run.better_than) or "-", justify="left"),
            )
        print_fitted(console, board)
        _note(
            console,
            "rank = 1 + the number of runs significantly better (Holm-adjusted p below "
            f"{1 - significance.settings.level:.2g}); runs sharing a rank are not told apart",
        )
        if ranking.left_out:
            console.print(
                Text(
                    f"not scored by every run ({len(ranking.left_out)}, left out): "
                    f"{listed_ids(ranking.left_out)}"
                ),
                soft_wrap=True,
            )
    _note(console, significance_note(significance))
