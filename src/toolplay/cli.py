"""The `toolplay` command line: parse options, build a config, call one library function.

Errors print one line and exit non-zero; `--debug` shows the traceback instead.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar, cast

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from toolplay.report import render_summary
from toolplay.runs import Mode, RunConfig, execute_run, rescore_run
from toolplay.scenarios import BUILTIN, IMPORTERS, load_suite
from toolplay.validate import validate_suite

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Evaluate how well AI assistants use tools in conversation.",
)
console = Console()
err_console = Console(stderr=True)
T = TypeVar("T")
_state: dict[str, bool] = {"debug": False}


@app.callback()
def main(debug: Annotated[bool, typer.Option(help="Show tracebacks on errors.")] = False) -> None:
    """toolplay: play tool-use conversations against simulated worlds and score them."""
    _state["debug"] = debug


def _guard(action: Callable[[], T]) -> T:
    try:
        return action()
    except (KeyboardInterrupt, typer.Exit):
        raise
    except Exception as exc:
        if _state["debug"]:
            raise
        err_console.print(f"[red]error:[/red] {exc}", markup=True, highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None


def _progress_run(config: RunConfig) -> dict[str, Any]:
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=False,
        disable=not sys.stderr.isatty(),
    ) as bar:
        task = bar.add_task(f"{config.suite} · {config.assistant}", total=None)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return asyncio.run(execute_run(config, progress=report))


@app.command()
def run(
    suite: Annotated[str, typer.Option(help="Suite name, NAME:ARG importer, or path.")] = "quick",
    mode: Annotated[str | None, typer.Option(help="static or dynamic (default: suite's).")] = None,
    assistant: Annotated[str, typer.Option(help="Assistant spec, e.g. oracle.")] = "oracle",
    user: Annotated[str, typer.Option(help="User spec, e.g. scripted.")] = "scripted",
    limit: Annotated[int | None, typer.Option(help="Only the first N scenarios.")] = None,
    out: Annotated[Path, typer.Option(help="Run directory to write.")] = Path("runs/latest"),
    concurrency: Annotated[int, typer.Option(help="Scenarios played at once.")] = 1,
    trials: Annotated[int, typer.Option(help="Trials per scenario.")] = 1,
    resume: Annotated[bool, typer.Option(help="Continue the run stored in --out.")] = False,
    system_prompt: Annotated[
        str | None, typer.Option(help="Replace the base system prompt.")
    ] = None,
    augment: Annotated[
        list[str] | None,
        typer.Option(help="Tool augmentation for every scenario (repeatable), e.g. no_docs."),
    ] = None,
) -> None:
    """Play a suite with an assistant and a user, score it, and write the run directory."""

    def action() -> dict[str, Any]:
        config = RunConfig(
            suite=suite,
            mode=cast(Mode | None, mode),
            assistant=assistant,
            user=user,
            limit=limit,
            out=out,
            concurrency=concurrency,
            trials=trials,
            resume=resume,
            system_prompt=system_prompt,
            augment=augment or [],
        )
        return _progress_run(config)

    summary = _guard(action)
    render_summary(summary, console)
    console.print(f"Run written to [bold]{out}[/bold] (summary.json, trajectories/, run.sqlite)")


@app.command()
def validate(
    suite: Annotated[str, typer.Option(help="Suite name, NAME:ARG importer, or path.")] = "quick",
) -> None:
    """Check a suite: every file loads and the oracle scores perfectly on every scenario."""
    report = _guard(lambda: validate_suite(suite))
    if report.failures:
        for failure in report.failures:
            err_console.print(f"[red]FAIL[/red] {failure}", highlight=False, soft_wrap=True)
        err_console.print(f"{len(report.failures)} problem(s) in {report.checked} scenario(s)")
        raise typer.Exit(1)
    console.print(f"ok: {report.checked} scenario(s) in suite {suite!r} passed validation")


@app.command()
def suites() -> None:
    """List the built-in suites and importers with scenario counts by category."""
    table = Table("suite", "scenarios", "categories", "description")
    for name, (description, _) in BUILTIN.items():
        loaded = _guard(lambda name=name: load_suite(name))  # type: ignore[misc]
        counts: dict[str, int] = {}
        for scenario in loaded.scenarios:
            for category in scenario.categories:
                counts[category] = counts.get(category, 0) + 1
        cats = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        table.add_row(name, str(len(loaded)), cats, description)
    for prefix, (description, _) in IMPORTERS.items():
        table.add_row(f"{prefix}:…", "-", "-", description)
    console.print(table)


@app.command()
def tools(
    suite: Annotated[str | None, typer.Option(help="Only tools used by this suite.")] = None,
) -> None:
    """List the available tools: name, domain, action or read, tables, description."""
    from toolplay.tools import domains, registry_for

    names = list(domains())
    if suite:
        loaded = _guard(lambda: load_suite(suite))
        names = sorted({d for s in loaded.scenarios for d in s.world.domains})
    registry = _guard(lambda: registry_for(names))
    table = Table("tool", "domain", "kind", "reads", "writes", "description")
    for spec in registry.tools.values():
        table.add_row(
            spec.name,
            spec.domain,
            spec.kind,
            ",".join(sorted(spec.meta.reads)),
            ",".join(sorted(spec.meta.writes)),
            spec.description.splitlines()[0],
        )
    console.print(table)


@app.command()
def score(run_dir: Annotated[Path, typer.Argument(help="A run directory.")]) -> None:
    """Recompute every score of a stored run from its trajectories (no model calls)."""
    summary = _guard(lambda: rescore_run(run_dir))
    render_summary(summary, console)


if __name__ == "__main__":  # pragma: no cover
    app()
