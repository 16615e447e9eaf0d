"""`toolplay review RUN --judge SPEC`: a judge model tags the simulated user's errors.

Parses the judge's options into `ModelOptions` and calls `runs.review_run`, which stores the
verdicts beside the run (`RUN/reviews/<judge>/`), resumably; then prints what the judge found,
beside what the deterministic checks found. Exit status 3 when a judge call failed after its
retries (its trial stays pending: `toolplay review` again reviews it).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.table import Table
from rich.text import Text

from toolplay.cli._app import _guard, app, console, err_console, plugins
from toolplay.cli._progress import LiveBar, PlainLines
from toolplay.cli._run import _parse_options
from toolplay.clients import ModelOptions
from toolplay.errors import INFRASTRUCTURE
from toolplay.runs import ReviewSummary, RunError, review_run


def _options(
    base_url: str | None,
    api_key_env: str | None,
    temperature: float | None,
    max_tokens: int | None,
    extra: list[str],
) -> ModelOptions:
    given = {
        "base_url": base_url,
        "api_key_env": api_key_env,
        "temperature": temperature,
        "max_tokens": max_tokens,
    }
    values = {**_parse_options(extra), **{k: v for k, v in given.items() if v is not None}}
    try:
        return ModelOptions.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RunError(f"--option {where}: {first['msg']}") from None


def _print(summary: ReviewSummary) -> None:
    console.print(
        Text(
            f"judge {summary.judge}: {summary.reviewed} trial(s) reviewed, "
            f"{summary.malformed} malformed answer(s), {summary.pending} pending, "
            f"{summary.errors} user error(s) tagged"
        ),
        soft_wrap=True,
    )
    table = Table(
        title="Judge vs checks (user messages per kind)",
        title_justify="left",
        title_style="bold",
        header_style="dim",
    )
    for i, column in enumerate(("kind", "both", "judge only", "checks only")):
        table.add_column(column, justify="right" if i else "left")
    for kind, counts in summary.agreement.items():
        table.add_row(Text(kind), str(counts.both), str(counts.judge_only), str(counts.checks_only))
    console.print(table)
    severities = " · ".join(f"{k} {v}" for k, v in summary.by_severity.items())
    console.print(Text(f"severity: {severities}"), soft_wrap=True)


@app.command()
def review(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (only read).")],
    judge: Annotated[
        str,
        typer.Option(help="The judge: openai:MODEL (any OpenAI-compatible endpoint) or local."),
    ],
    base_url: Annotated[
        str | None, typer.Option(help="The judge's endpoint (default the OpenAI API).")
    ] = None,
    api_key_env: Annotated[
        str | None, typer.Option(help="Environment variable holding its key.")
    ] = None,
    temperature: Annotated[
        float | None, typer.Option(help="Sampling temperature (default 0).")
    ] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Cap on tokens per verdict.")] = None,
    cache: Annotated[Path | None, typer.Option(help="Response cache file (SQLite).")] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Trials judged at once.")] = 1,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Review at most N more trials this time.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(help="Another judge model option KEY=VALUE (e.g. timeout=120)."),
    ] = None,
) -> None:
    """Let a judge model tag the simulated user's errors in a stored run (resumable; stored
    in RUN/reviews/JUDGE/ and shown by `toolplay report`).
    """
    options = _guard(lambda: _options(base_url, api_key_env, temperature, max_tokens, option or []))
    label = f"review · {judge}"
    live = LiveBar(err_console, label) if err_console.is_terminal else None
    shown = live if live is not None else PlainLines(err_console, label)
    try:
        summary = _guard(
            lambda: asyncio.run(
                review_run(
                    run_dir,
                    judge,
                    options,
                    cache=cache,
                    concurrency=concurrency,
                    limit=limit,
                    plugins=plugins(),
                    progress=shown,
                )
            )
        )
    finally:
        if live is not None:
            live.stop()
    _print(summary)
    console.print(f"Verdicts stored in {run_dir / 'reviews'}", highlight=False)
    if summary.failed:
        raise typer.Exit(INFRASTRUCTURE)
