"""`toolplay score`, `report` and `compare`: read stored runs, never play them again.

`toolplay.report` (jinja2, the HTML templates) is imported inside the commands: every other
command starts faster without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolplay.cli._app import _guard, app, console, err_console, exit_for_failed_trials, plugins
from toolplay.cli._ci import CiLevel, CiResamples, CiSeed, ci_settings
from toolplay.cli._versions import Errata, SuiteVersionFlag, version_request
from toolplay.runs import RunConfig, rescore_run, run_catalog, run_version, stored_settings


@app.command()
def score(
    run_dir: Annotated[Path, typer.Argument(help="A run directory.")],
    ci_level: CiLevel = None,
    ci_resamples: CiResamples = None,
    ci_seed: CiSeed = None,
    errata: Errata = None,
    suite_version: SuiteVersionFlag = None,
) -> None:
    """Recompute every score of a stored run from its trajectories (no model calls).

    The intervals use the settings stored with the run unless a --ci-* flag is given. With
    --suite-version (and --errata), the run is re-scored against that version of its suite,
    unless the version changes what was played (then nothing changes and the scenarios to play
    again are named).
    """
    settings = ci_settings(ci_level, ci_resamples, ci_seed)
    request = version_request(errata, suite_version)
    found = _guard(lambda: run_catalog(run_dir, plugins()))
    summary = _guard(
        lambda: rescore_run(run_dir, catalog=found, uncertainty=settings, version=request)
    )
    from toolplay.report import render_summary  # noqa: PLC0415 (startup time)

    render_summary(summary, console, found.scorers)
    if request is not None:
        config = RunConfig.model_validate(stored_settings(run_dir) or {})
        version = config.suite_version
        where = f" ({version.errata})" if version is not None else ""
        console.print(f"scored against suite version {run_version(config)}{where}", highlight=False)
    exit_for_failed_trials(summary, run_dir, played=False)


@app.command()
def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory.")],
    out: Annotated[
        Path | None, typer.Option(help="Where to write (default RUN_DIR/report.html).")
    ] = None,
) -> None:
    """Write a self-contained HTML report of a run (reads the run directory only)."""
    from toolplay.report import write_report  # noqa: PLC0415 (startup time)

    written = _guard(lambda: write_report(run_dir, out))
    console.print(f"Report written to [bold]{written}[/bold]", highlight=False)


@app.command()
def compare(
    run_dirs: Annotated[
        list[Path],
        typer.Argument(
            help="Two or more run directories, each optionally named METHOD:ASSISTANT=DIR "
            "for system-level agreement (e.g. human:gpt35=runs/h1 dynamic:gpt35=runs/d1)."
        ),
    ],
    human: Annotated[
        Path | None, typer.Option(help="CSV of human scores: scenario_id,score per row.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Also write the comparison as HTML to this file.")
    ] = None,
    ci_level: CiLevel = None,
    ci_resamples: CiResamples = None,
    ci_seed: CiSeed = None,
    mixed_versions: Annotated[
        bool,
        typer.Option(help="Compare runs scored against different versions of their suite."),
    ] = False,
) -> None:
    """Compare runs: side by side, paired differences with intervals and p-values, agreement
    per scenario and at system level (one point per assistant, as AutoDE's Table 2).
    """
    from toolplay.analysis import compare_runs  # noqa: PLC0415 (startup time)
    from toolplay.report import (  # noqa: PLC0415 (startup time)
        render_comparison,
        write_comparison,
    )

    settings = ci_settings(ci_level, ci_resamples, ci_seed)
    comparison = _guard(
        lambda: compare_runs(
            run_dirs,
            human,
            uncertainty=settings,
            plugins=plugins(),
            mixed_versions=mixed_versions,
        )
    )
    # The file first: a failure to write it is then the only thing printed.
    written = None
    if out is not None:
        written = _guard(lambda: write_comparison(comparison, out, human_file=human))
    render_comparison(comparison, console)
    if written is not None:
        console.print(f"Comparison written to [bold]{written}[/bold]", highlight=False)
    # Sources that share no scenario were compared on nothing: say so, and fail (exit 1), so
    # a script comparing the wrong folders notices.
    disjoint = [pair for pair in comparison.pairs if pair.stats.n == 0]
    for pair in disjoint:
        err_console.print(
            f"[yellow]warning:[/yellow] {pair.left} and {pair.right} share no scored "
            "scenario: nothing was compared (different suites, --augment or --limit?)",
            highlight=False,
            soft_wrap=True,
        )
    if disjoint:
        raise typer.Exit(1)
