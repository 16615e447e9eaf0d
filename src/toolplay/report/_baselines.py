"""A run beside its floor and its ceiling, printed after `make run` (`toolplay baselines`).

A first run of a tiny local model ends with a table of small numbers; whether they mean
anything depends on what doing nothing scores and what is possible. So the table sets the
run's headline metrics between the floor (`no-call`) and the ceiling (`oracle`) on the same
scenarios, says where the run's main metric sits between them, and ends with how to evaluate a
real model and where to look next, each as a command that works as printed.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from toolplay.analysis import COUNT_KEYS, run_scorers, summary_view
from toolplay.report._format import fmt
from toolplay.runs import CEILING, FLOOR, Baselines, RunSummary
from toolplay.scoring import Scorer

__all__ = ["baseline_rows", "baseline_sentence", "render_baselines"]


def _position(run: float | None, floor: float | None, ceiling: float | None) -> str | None:
    if run is None or floor is None or ceiling is None or ceiling <= floor:
        return None
    return f"{(run - floor) / (ceiling - floor):.0%}"


def baseline_rows(
    summary: RunSummary, baselines: Baselines, scorers: Mapping[str, Scorer]
) -> list[tuple[str, str, str, str]]:
    """(metric, floor, this run, ceiling) for each of the run's metrics, formatted."""
    low = dict(summary_view(baselines.floor, scorers).metrics)
    high = dict(summary_view(baselines.ceiling, scorers).metrics)
    return [
        (key, fmt(low.get(key)), fmt(value), fmt(high.get(key)))
        for key, value in summary_view(summary, scorers).metrics
        if key not in COUNT_KEYS
    ]


def baseline_sentence(
    summary: RunSummary, baselines: Baselines, scorers: Mapping[str, Scorer]
) -> str | None:
    """Where the run's main metric sits between the floor and the ceiling, as a sentence."""
    rows = [(k, v) for k, v in summary_view(summary, scorers).metrics if k not in COUNT_KEYS]
    primary = next((k for k, v in rows if isinstance(v, int | float)), None)
    if primary is None:
        return None
    low, high = baselines.floor.metrics, baselines.ceiling.metrics
    share = _position(summary.metrics.get(primary), low.get(primary), high.get(primary))
    if share is None:
        return None
    return (
        f"On {primary}, {summary.assistant} covers {share} of the way from the floor (an "
        "assistant that never calls a tool) to the ceiling (the reference solution)."
    )


def render_baselines(
    summary: RunSummary,
    baselines: Baselines,
    run_dir: Path,
    console: Console,
    command: str,
    scorers: Mapping[str, Scorer] | None = None,
) -> None:
    """Print the run's metrics between its floor and ceiling, then the next steps.

    Args:
        summary: The run's summary.
        baselines: The floor's and ceiling's summaries on the same scenarios.
        run_dir: The run directory (named in the printed commands).
        console: Where to print.
        command: How to invoke toolplay so that the printed commands work as printed.
        scorers: The catalog's scorers (default: the built-ins' and the installed plugins').
    """
    found = scorers if scorers is not None else run_scorers([])
    trials = f"{summary.scenarios} scenario trial{'' if summary.scenarios == 1 else 's'}"
    table = Table(
        title=f"{summary.assistant} between the floor and the ceiling "
        f"({trials} of {summary.suite})",
        title_justify="left",
        title_style="bold",
        header_style="dim",
    )
    table.add_column("metric", no_wrap=True)
    for name in (f"floor ({FLOOR})", f"this run ({summary.assistant})", f"ceiling ({CEILING})"):
        table.add_column(name, justify="right")
    for row in baseline_rows(summary, baselines, found):
        table.add_row(*(Text(c) for c in row))
    console.print(table)
    sentence = baseline_sentence(summary, baselines, found)
    if sentence is not None:
        console.print(Text(sentence), soft_wrap=True)
    run = shlex.quote(str(run_dir))
    console.print(
        Text(
            f"To evaluate a real model: {command} run --suite {shlex.quote(summary.suite)} "
            "--assistant openai:MODEL --base-url URL --out runs/mine (any OpenAI-compatible "
            f"endpoint, key read from OPENAI_API_KEY), then {command} compare {run} runs/mine."
        ),
        soft_wrap=True,
    )
    console.print(Text(f"HTML report: {command} report {run}"), soft_wrap=True)
