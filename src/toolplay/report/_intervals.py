"""Confidence intervals and trial power as readers see them, in the terminal and the report.

Everything here reads the summary's `uncertainty` section (`runs.RunUncertainty`) and turns
it into cells, rows and short sentences; a summary without it (written before intervals
existed) shows no intervals rather than failing: `toolplay score RUN_DIR` rebuilds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolplay.analysis import HEADLINE_ORDER, RunData, Value
from toolplay.report._format import fmt
from toolplay.runs import RunSummary, RunUncertainty
from toolplay.stats import ConfidenceInterval, TrialPower, scenario_spreads

__all__ = [
    "ci_header",
    "interval_text",
    "method_note",
    "power_rows",
    "power_sentences",
    "summary_uncertainty",
    "uncertainty_context",
    "with_intervals",
]


_NAMED = 3
"""Scenarios a sentence names (the report's table lists every one)."""


def summary_uncertainty(summary: RunSummary | None) -> RunUncertainty | None:
    """The summary's `uncertainty` section, or None when there is no summary or section."""
    return None if summary is None else summary.uncertainty


def _percent(level: float) -> str:
    return f"{level * 100:g}%"


def ci_header(uncertainty: RunUncertainty) -> str:
    """The column title of intervals, e.g. `95% CI`."""
    return f"{_percent(uncertainty.settings.level)} CI"


def interval_text(interval: ConfidenceInterval | None) -> str:
    """`low–high` with the metric's precision; `-` where there is no interval."""
    if interval is None or interval.low is None or interval.high is None:
        return "-"
    return f"{fmt(interval.low)}–{fmt(interval.high)}"


def method_note(uncertainty: RunUncertainty) -> str:
    """One line saying how the intervals were made (for under a table)."""
    s = uncertainty.settings
    kind = "BCa" if s.method == "bca" else "percentile"
    return (
        f"{_percent(s.level)} {kind} bootstrap intervals over scenarios (each with all its "
        f"trials), {s.resamples:,} resamples, seed {s.seed}; '-': fewer than two scenarios"
    )


def with_intervals(
    columns: Sequence[str],
    rows: Sequence[tuple[str, Mapping[str, Value]]],
    intervals: Mapping[str, Mapping[str, ConfidenceInterval]] | None,
    header: str,
) -> tuple[list[str], list[tuple[str, dict[str, Value | str]]]]:
    """A breakdown table (`_metrics.group_table`) with an interval column after its metric.

    Args:
        columns: The table's columns.
        rows: (group name, {column: value}).
        intervals: The section's intervals: group name -> {metric: interval}.
        header: The interval column's title, e.g. `95% CI`.

    Returns:
        The columns and rows, unchanged when there are no intervals for them.
    """
    plain: list[tuple[str, dict[str, Value | str]]] = [(g, dict(v)) for g, v in rows]
    if not intervals:
        return list(columns), plain
    metrics = {m for group in intervals.values() for m in group}
    metric = next((c for c in columns if c in metrics), None)
    if metric is None:
        return list(columns), plain
    name = f"{metric} {header}"
    position = list(columns).index(metric) + 1
    out_columns = [*columns[:position], name, *columns[position:]]
    out_rows = [
        (group, {**values, name: interval_text(intervals.get(group, {}).get(metric))})
        for group, values in rows
    ]
    return out_columns, out_rows


def power_rows(power: TrialPower) -> list[tuple[str, str, str, str]]:
    """(trials per scenario, SE of a run's mean, detectable: bound, floor) per design."""
    return [
        (
            "unlimited" if d.trials is None else str(d.trials),
            fmt(d.se),
            fmt(d.upper),
            fmt(d.floor),
        )
        for d in power.detectable
    ]


def power_sentences(power: TrialPower) -> list[str]:
    """How to read the trial power table, with this run's numbers."""
    varying = f"{power.varying} of {power.scenarios} scenarios scored differently across trials"
    spread = (
        f"spread over trials σ_w {fmt(power.within_sd)}, between scenarios σ_b "
        f"{fmt(power.between_sd)} ({varying})"
    )
    detect = (
        f"smallest difference in mean {power.metric} another run of this design could be "
        f"told apart from, at {_percent(power.level)} confidence with "
        f"{_percent(power.power)} power: 'bound' if the two assistants' scenario effects "
        "are unrelated, 'floor' if only trial noise differs"
    )
    notes = [spread, detect]
    varied = [s for s in power.most_variable if s.sd > 0]
    if varied:
        names = ", ".join(f"{s.scenario_id} (sd {fmt(s.sd)})" for s in varied[:_NAMED])
        more = " …" if power.varying > _NAMED else ""
        notes.append(f"most variable: {names}{more}")
    return notes


def uncertainty_context(run: RunData) -> dict[str, Any] | None:
    """The report's *Uncertainty* panel: intervals, pass^k, trial power, per-scenario spread.

    Returns:
        Plain data for `report.html.jinja`, or None when the summary has no intervals.
    """
    uncertainty = summary_uncertainty(run.summary)
    if uncertainty is None:
        return None
    order = [k for k in HEADLINE_ORDER if k in uncertainty.metrics]
    order += sorted(k for k in uncertainty.metrics if k not in order)
    scores: dict[str, list[float]] = {}
    for entry in run.entries:
        if entry.value is not None:
            scores.setdefault(entry.id, []).append(entry.value)
    power = uncertainty.trials
    return {
        "header": ci_header(uncertainty),
        "note": method_note(uncertainty),
        "metrics": [
            (
                name,
                fmt(uncertainty.metrics[name].estimate),
                interval_text(uncertainty.metrics[name]),
                fmt(uncertainty.metrics[name].se),
            )
            for name in order
        ],
        "pass_hat_k": [
            (k, fmt(interval.estimate), interval_text(interval))
            for k, interval in sorted(
                uncertainty.pass_hat_k.items(), key=lambda kv: (len(kv[0]), kv[0])
            )
        ],
        "power_rows": power_rows(power) if power else [],
        "power_notes": power_sentences(power) if power else [],
        "spreads": [
            (s.scenario_id, str(s.trials), fmt(s.mean), fmt(s.sd))
            for s in scenario_spreads(scores)
            if s.sd > 0
        ],
    }
