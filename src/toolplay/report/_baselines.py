"""A run beside its floor and its ceiling, printed after `make run` (`toolplay baselines`).

A first run of a tiny local model ends with a table of small numbers; whether they mean
anything depends on what doing nothing scores and what is possible. So the table sets the
run's headline metrics between the floor (`no-call`) and the ceiling (`oracle`) on the same
scenarios, says where the run's main metric sits between them, and ends with how to evaluate a
real model and where to look next, each as a command that works as printed.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from toolplay.analysis._metrics import COUNT_KEYS, fmt, ordered_metrics
from toolplay.runs import CEILING, FLOOR, Baselines, RunSummary

__all__ = ["baseline_rows", "baseline_sentence", "render_baselines"]


def _position(run: float | None, floor: float | None, ceiling: float | None) -> str | None:
    if run is None or floor is None or ceiling is None or ceiling <= floor:
        return None
    return f"{(run - floor) / (ceiling - floor):.0%}"


def baseline_rows(summary: RunSummary, baselines: Baselines) -> list[tuple[str, str, str, str]]:
    """(metric, floor, this run, ceiling) for each of the run's metrics, formatted."""
    low, high = (
        dict(ordered_metrics(baselines.floor.metrics)),
        dict(ordered_metrics(baselines.ceiling.metrics)),
    )
    return [
        (key, fmt(low.get(key)), fmt(value), fmt(high.get(key)))
        for key, value in ordered_metrics(summary.metrics)
        if key not in COUNT_KEYS
    ]


def baseline_sentence(summary: RunSummary, baselines: Baselines) -> str | None:
    """Where the run's main metric sits between the floor and the ceiling, as a sentence."""
    rows = [(k, v) for k, v in ordered_metrics(summary.metrics) if k not in COUNT_KEYS]
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
    summary: RunSummary, baselines: Baselines, run_dir: Path, console: Console, command: str
) -> None:
    """Print the run's metrics between its floor and ceiling, then the next steps.

    Args:
        summary: The run's summary.
        baselines: The floor's and ceiling's summaries on the same scenarios.
        run_dir: The run directory (named in the printed commands).
        console: Where to print.
        command: How to invoke toolplay so that the printed commands work as printed.
    """
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
    for row in baseline_rows(summary, baselines):
        table.add_row(*(Text(c) for c in row))
    console.print(table)
    sentence = baseline_sentence(summary, baselines)
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
