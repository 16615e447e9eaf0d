"""The simulated user's errors as readers see them, in the terminal and the report.

Reads the summary's `user_errors` section (`runs.UserErrorSummary`): the errors per kind
(messages and trials), the share of trials with any, and each headline metric over all scored
trials beside the same metric over the trials without a user error, with its interval. A
summary without the section (a scripted user, or a run scored before the checks existed)
shows nothing: `toolplay score RUN_DIR` adds it to an old run. A judge model's reviews
(`toolplay review`, stored beside the run) are shown per judge and per trial.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.console import Console
from rich.table import Table
from rich.text import Text

from toolplay.analysis import COUNT_KEYS, RunData, UserErrorRate, UserModelComparison, ordered
from toolplay.report._format import fmt, stat_cells
from toolplay.report._intervals import interval_text
from toolplay.runs import RunSummary, UserErrorSummary

__all__ = [
    "MetricWithout",
    "judged_by_trial",
    "review_context",
    "render_user_errors",
    "render_user_models",
    "user_error_context",
    "user_error_note",
    "user_models_context",
    "without_rows",
]


class MetricWithout(NamedTuple):
    """One headline metric over every scored trial and over those without a user error."""

    name: str
    all_trials: str
    without: str
    interval: str


def user_error_note(section: UserErrorSummary) -> str:
    """One sentence: how many trials had a user error, and what happens to them."""
    share = "" if section.share_with_errors is None else f" ({section.share_with_errors:.0%})"
    return (
        f"{section.trials_with_errors} of {section.trials} checked trial(s){share} have at least "
        f"one user error, in {section.messages_with_errors} of {section.messages_checked} "
        "simulator-written user message(s); they are kept and scored as played."
    )


def without_rows(summary: RunSummary) -> list[MetricWithout]:
    """Each headline metric beside its value without the trials that have a user error."""
    section = summary.user_errors
    if section is None:
        return []
    clean = section.without_user_errors
    kept = clean.metrics.values()
    values = summary.metrics.values()
    rows = []
    for name in ordered(list(values)):
        value = values[name]
        if name in COUNT_KEYS:
            continue
        interval = clean.intervals.get(name)
        rows.append(
            MetricWithout(
                name, fmt(value), fmt(kept.get(name)), interval_text(interval) if interval else "-"
            )
        )
    return rows


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", header_style="dim")
    for i, column in enumerate(columns):
        table.add_column(column, justify="right" if i else "left", overflow="fold")
    return table


def render_user_errors(summary: RunSummary, console: Console) -> None:
    """Print the user errors per kind and the metrics without them (nothing when absent)."""
    section = summary.user_errors
    if section is None:
        return
    kinds = _table("Simulated user errors", "kind", "messages", "trials")
    for kind, count in section.by_kind.items():
        kinds.add_row(Text(kind), Text(fmt(count.messages)), Text(fmt(count.trials)))
    console.print(kinds)
    console.print(Text(user_error_note(section)), soft_wrap=True)
    clean = section.without_user_errors
    level = ""
    if summary.uncertainty is not None:
        level = f"{summary.uncertainty.settings.level * 100:g}% "
    table = _table(
        f"Without the trials with a user error ({clean.trials} trial(s), "
        f"{clean.scenarios} scenario(s))",
        "metric",
        "all",
        "without",
        f"{level}CI",
    )
    for row in without_rows(summary):
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)


def user_error_context(summary: RunSummary | None) -> dict[str, object] | None:
    """What the report's *Simulated user errors* panel shows (None: no such section)."""
    section = None if summary is None else summary.user_errors
    if summary is None or section is None:
        return None
    level = ""
    if summary.uncertainty is not None:
        level = f"{summary.uncertainty.settings.level * 100:g}% "
    return {
        "note": user_error_note(section),
        "kinds": [(k, fmt(c.messages), fmt(c.trials)) for k, c in section.by_kind.items()],
        "share": fmt(section.share_with_errors),
        "clean_trials": section.without_user_errors.trials,
        "clean_scenarios": section.without_user_errors.scenarios,
        "ci_header": f"{level}CI",
        "metrics": without_rows(summary),
    }


def review_context(run: RunData) -> list[dict[str, object]]:
    """What the report's *Judge reviews* panel shows: one block per judge (`toolplay review`)."""
    out: list[dict[str, object]] = []
    for review in run.reviews:
        s = review.summary
        out.append(
            {
                "judge": s.judge,
                "model": fmt(s.judge_settings.get("model")),
                "facts": [
                    ("reviewed", fmt(s.reviewed)),
                    ("malformed answers", fmt(s.malformed)),
                    ("pending", fmt(s.pending)),
                    ("user errors tagged", fmt(s.errors)),
                    *((f"severity {k}", fmt(v)) for k, v in s.by_severity.items()),
                ],
                "agreement": [
                    (k, fmt(a.both), fmt(a.judge_only), fmt(a.checks_only))
                    for k, a in s.agreement.items()
                ],
            }
        )
    return out


def judged_by_trial(run: RunData) -> dict[tuple[str, int], list[dict[str, object]]]:
    """Each trial's verdicts, one per judge, as the viewer shows them."""
    out: dict[tuple[str, int], list[dict[str, object]]] = {}
    for review in run.reviews:
        for verdict in review.verdicts:
            out.setdefault((verdict.scenario_id, verdict.trial), []).append(
                {
                    "judge": review.summary.judge,
                    "status": verdict.status,
                    "problem": verdict.problem,
                    "raw": verdict.raw,
                    "errors": [e.model_dump(mode="json") for e in verdict.errors],
                }
            )
    return out


def render_user_models(found: UserModelComparison | None, console: Console) -> None:
    """Print what changes with the simulated user (`toolplay compare`; nothing when the runs
    share one user).
    """
    if found is None:
        return
    metric = found.metric or "metric"
    rates = _table(
        "Simulated users side by side", "run", "user", "with errors", "trials", metric, "without"
    )
    for rate in found.rates:
        rates.add_row(*(Text(c) for c in (rate.label, rate.user, *rate_cells(rate))))
    console.print(rates)
    if found.pairs:
        pairs = _table(
            "Same assistant, another user: agreement per scenario",
            "assistant",
            "users (a / b)",
            "n",
            "Pearson",
            "ICC(3,1)",
            "a - b",
        )
        for pair in found.pairs:
            cells = stat_cells(pair.stats)
            difference = "-" if pair.difference is None else f"{pair.difference:+.3f}"
            pairs.add_row(
                Text(pair.assistant),
                Text(f"{pair.left_user} / {pair.right_user}"),
                Text(cells["n"]),
                Text(cells["pearson"]),
                Text(cells["icc"]),
                Text(difference),
            )
        console.print(pairs)
        for pair in found.pairs:
            if pair.differs_also:
                also = ", ".join(pair.differs_also)
                console.print(
                    Text(f"note: {pair.left} and {pair.right} also differ in {also}", style="dim"),
                    soft_wrap=False,
                )
    for ranking in found.rankings:
        verdict = "changed" if ranking.changed else "unchanged"
        tau = fmt(ranking.tau)
        console.print(
            Text(
                f"ranking of {len(ranking.assistants)} assistants by {metric}, "
                f"{ranking.left_user} vs {ranking.right_user}: Kendall's tau {tau} ({verdict}); "
                f"{' > '.join(ranking.left_order)} vs {' > '.join(ranking.right_order)}"
            ),
            soft_wrap=False,
        )


def user_models_context(found: UserModelComparison | None) -> dict[str, object] | None:
    """What the comparison page's *Which simulated user* section shows (None: one user)."""
    if found is None:
        return None
    return {
        "metric": found.metric or "metric",
        "rates": [(r.label, r.user, *rate_cells(r)) for r in found.rates],
        "pairs": [
            {
                "assistant": p.assistant,
                "users": f"{p.left_user} / {p.right_user}",
                "cells": stat_cells(p.stats),
                "difference": "-" if p.difference is None else f"{p.difference:+.3f}",
                "also": ", ".join(p.differs_also),
            }
            for p in found.pairs
        ],
        "rankings": [
            {
                "users": f"{r.left_user} vs {r.right_user}",
                "assistants": len(r.assistants),
                "tau": fmt(r.tau),
                "changed": "changed" if r.changed else "unchanged",
                "orders": f"{' > '.join(r.left_order)} vs {' > '.join(r.right_order)}",
            }
            for r in found.rankings
        ],
    }


def rate_cells(rate: UserErrorRate) -> list[str]:
    """A run's user-error figures as table cells: share, trials, metric, without."""
    share = "-" if rate.share is None else f"{rate.share:.0%}"
    return [share, fmt(rate.trials), fmt(rate.metric), fmt(rate.without)]
