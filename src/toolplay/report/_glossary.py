"""The metrics glossary: every metric a summary may show, with its range, origin and aggregation.

It is generated, never written by hand: each scoring method declares its metrics beside its
scorer and aggregator (`scoring.Metric`, registered in the catalog), and the figures every run
has whatever its method (pass^k, the spread over trials, the group counts of the breakdowns)
are declared here, and so are the figures of the user-error checks, one row per check the
catalog holds (`toolplay.users`). The glossary of docs/results.md is this module's Markdown (a
test keeps the two equal), the HTML report shows the same rows in a collapsible block, and `toolplay
glossary` prints them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from toolplay.scoring import Metric, Scorer
from toolplay.users import UserCheck

__all__ = ["RUN_METRICS", "GlossaryRow", "glossary", "glossary_markdown"]

RUN_METRICS = (
    Metric(
        "pass^k",
        "Chance that k trials drawn from a scenario's K all succeed (success: by the scorer's "
        "success rule, e.g. ToolTalk's success flag; by default a score of 1), in the "
        "summary's `trials` section.",
        aggregation="mean over scenarios with at least k scored trials",
        method="τ-bench",
    ),
    Metric(
        "score over trials",
        "The main score's mean per trial, then mean ± sample std over trials "
        "(`trials.score_mean`, `trials.score_std`).",
        aggregation="per trial: mean over scenarios; then mean and std over trials",
    ),
    Metric(
        "score",
        "In a breakdown row of a method whose aggregator has no per-group metrics (ToolTalk's "
        "by_category): the mean scenario score (ToolTalk: a conversation's success, 0 or 1).",
    ),
    Metric(
        "scenarios",
        "In a breakdown row (by category, domain, augmentation): distinct scenarios of the group "
        "with a scored trial.",
        range="count",
        aggregation="count",
    ),
    Metric(
        "trials",
        "In a breakdown row: scored scenario trials of the group (scenarios x trials, less "
        "infrastructure errors).",
        range="count",
        aggregation="count",
    ),
    Metric(
        "conversations",
        "In ToolTalk's splits: scored conversation trials of the split.",
        range="count",
        aggregation="count",
        method="ToolTalk",
    ),
)
"""Figures of every run, whatever its scoring method."""

USER_ERROR_METRICS = (
    Metric(
        "user_errors.share_with_errors",
        "Share of checked scenario trials in which the user-error checks flagged at least one "
        "user message (`user_errors.trials_with_errors` / `user_errors.trials`).",
        range="0 to 1, lower is better",
        aggregation="trials with at least one user error / checked trials",
    ),
    Metric(
        "user_errors.without_user_errors.METRIC",
        "Each headline METRIC recomputed over the scored trials in which no user error was "
        "found, with its bootstrap interval; flagged trials stay in every other figure.",
        range="as METRIC",
        aggregation="as METRIC, over the trials without a user error",
    ),
)
"""Figures of a run with a simulated user, besides the per-kind counts of each check."""

SIMULATED_USER = "a simulated user"
"""Who reports the user-error figures (the glossary's `reported by`)."""


class GlossaryRow(NamedTuple):
    """One glossary entry: a metric as a scoring method (or every run) reports it."""

    name: str
    reported_by: str
    meaning: str
    range: str
    aggregation: str
    origin: str


def glossary(
    scorers: Mapping[str, Scorer],
    only: Iterable[str] | None = None,
    user_checks: Iterable[UserCheck] = (),
) -> list[GlossaryRow]:
    """The glossary rows: each scorer's declared metrics (by scorer name), `RUN_METRICS`, then
    one row per user-error check and the user-error figures (when `user_checks` are given).

    Args:
        scorers: The catalog's scorers by name.
        only: Keep only these scorers (e.g. the methods a run used); None keeps all.
        user_checks: The catalog's user-error checks.
    """
    wanted = set(scorers) if only is None else set(only)
    rows = [
        GlossaryRow(m.name, f"`{name}`", m.description, m.range, m.aggregation, m.method)
        for name in sorted(scorers)
        if name in wanted
        for m in scorers[name].metrics
    ]
    rows += [
        GlossaryRow(m.name, "every run", m.description, m.range, m.aggregation, m.method)
        for m in RUN_METRICS
    ]
    checks = list(user_checks)
    rows += [
        GlossaryRow(
            f"user_errors.{c.name}",
            SIMULATED_USER,
            c.definition,
            "count",
            "user messages flagged and trials with one (`user_errors.by_kind`)",
            c.method,
        )
        for c in checks
    ]
    if checks:
        rows += [
            GlossaryRow(m.name, SIMULATED_USER, m.description, m.range, m.aggregation, m.method)
            for m in USER_ERROR_METRICS
        ]
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def glossary_markdown(scorers: Mapping[str, Scorer], user_checks: Iterable[UserCheck] = ()) -> str:
    """The glossary as a Markdown table (docs/results.md's copy)."""
    lines = [
        "| metric | reported by (`evaluation`) | meaning | range | aggregation | from |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines += [
        "| " + " | ".join(_cell(c) for c in (f"`{r.name}`", *r[1:])) + " |"
        for r in glossary(scorers, user_checks=user_checks)
    ]
    return "\n".join(lines) + "\n"
