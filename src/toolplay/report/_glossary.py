"""The metrics glossary: every metric a summary may show, with its range, origin and aggregation.

It is generated, never written by hand: each scoring method declares its metrics beside its
scorer and aggregator (`scoring.Metric`, registered in the catalog), and the figures every run
has whatever its method (pass^k, the spread over trials, the group counts of the breakdowns)
are declared here. The README's glossary is this module's Markdown (a test keeps the two
equal), the HTML report shows the same rows in a collapsible block, and `toolplay glossary`
prints them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from toolplay.scoring import Metric, Scorer

__all__ = ["RUN_METRICS", "GlossaryRow", "glossary", "glossary_markdown"]

RUN_METRICS = (
    Metric(
        "pass^k",
        "Chance that k trials drawn from a scenario's K all succeed (success: the scorer's "
        "success flag, else a score of 1), in the summary's `trials` section.",
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


class GlossaryRow(NamedTuple):
    """One glossary entry: a metric as a scoring method (or every run) reports it."""

    name: str
    reported_by: str
    meaning: str
    range: str
    aggregation: str
    origin: str


def glossary(scorers: Mapping[str, Scorer], only: Iterable[str] | None = None) -> list[GlossaryRow]:
    """The glossary rows: each scorer's declared metrics (by scorer name), then `RUN_METRICS`.

    Args:
        scorers: The catalog's scorers by name.
        only: Keep only these scorers (e.g. the methods a run used); None keeps all.
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
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def glossary_markdown(scorers: Mapping[str, Scorer]) -> str:
    """The glossary as a Markdown table (the README's copy)."""
    lines = [
        "| metric | reported by (`evaluation`) | meaning | range | aggregation | from |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines += [
        "| " + " | ".join(_cell(c) for c in (f"`{r.name}`", *r[1:])) + " |"
        for r in glossary(scorers)
    ]
    return "\n".join(lines) + "\n"
