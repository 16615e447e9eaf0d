"""`toolplay run`: parse options, build a `RunConfig`, execute it with a progress bar."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from toolplay.cli._app import _guard, app, console, err_console
from toolplay.report import (
    render_summary,
)
from toolplay.runs import Mode, RunConfig, execute_run


def _progress_run(config: RunConfig) -> dict[str, Any]:
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=False,
        disable=not sys.stderr.isatty(),
    )
    tasks: list[TaskID] = []

    def report(done: int, total: int) -> None:
        if not tasks:  # the bar appears once the run has started, never above a refusal
            bar.start()
            tasks.append(bar.add_task(f"{config.suite} · {config.assistant}", total=total))
        bar.update(tasks[0], completed=done, total=total)

    try:
        return asyncio.run(execute_run(config, progress=report))
    finally:
        bar.stop()


def _parse_options(items: list[str]) -> dict[str, Any]:
    """`KEY=VALUE` pairs; a value that reads as JSON (numbers, true, ...) is taken as such."""
    parsed: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="--option")
        try:
            parsed[key.strip()] = json.loads(value)
        except ValueError:
            parsed[key.strip()] = value
    return parsed


PROMPT_SUFFIXES = (".txt", ".md", ".prompt")


def prompt_text(value: str | None, flag: str) -> str | None:
    """A prompt option's text: the contents of the file it names, else the value itself.

    A value that can only be meant as a file (no spaces, and a prompt-file suffix or a path
    separator) but names none is refused, so a typo never becomes the prompt.
    """
    if value is None:
        return None
    path = Path(value).expanduser()
    if path.is_file():
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise typer.BadParameter(f"cannot read {path}: {exc}", param_hint=flag) from exc
    looks_like_file = not any(c.isspace() for c in value) and (
        path.suffix in PROMPT_SUFFIXES or "/" in value
    )
    if looks_like_file:
        raise typer.BadParameter(f"no such file: {value}", param_hint=flag)
    return value


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
        str | None,
        typer.Option(help="Replace the base system prompt: the text, or a file holding it."),
    ] = None,
    user_prompt: Annotated[
        str | None,
        typer.Option(
            help="Instructions of a model-driven user in place of toolplay's (the text, or a "
            "file holding it, e.g. AutoDE's prompts/prompt_eng_user_v3.txt)."
        ),
    ] = None,
    augment: Annotated[
        list[str] | None,
        typer.Option(
            help="Augmentation setting (repeatable; 'none' = unaugmented): selects a suite's "
            "variants (sandbox) or applies it to every scenario (other suites), e.g. no_docs."
        ),
    ] = None,
    max_calls_per_turn: Annotated[
        int | None,
        typer.Option(min=1, help="Static mode: tool calls allowed per turn (default 20)."),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1.")
    ] = None,
    api_key_env: Annotated[
        str | None, typer.Option(help="Environment variable holding the API key.")
    ] = None,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature (0).")] = None,
    seed: Annotated[int | None, typer.Option(help="Sampling seed (+ trial number).")] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Cap on tokens per answer.")] = None,
    timeout: Annotated[float | None, typer.Option(help="Seconds per model call (60).")] = None,
    max_retries: Annotated[
        int | None, typer.Option(min=0, help="Retries per model call on 429/5xx/timeouts (5).")
    ] = None,
    cache: Annotated[
        Path | None, typer.Option(help="Response cache file (SQLite), shared across runs.")
    ] = None,
    user_base_url: Annotated[
        str | None, typer.Option(help="Endpoint of a model-driven user (default --base-url).")
    ] = None,
    user_api_key_env: Annotated[
        str | None, typer.Option(help="Key variable of a model-driven user.")
    ] = None,
    user_temperature: Annotated[
        float | None, typer.Option(help="Temperature of a model-driven user.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(help="Extra role/mode option KEY=VALUE (repeatable), e.g. local_n_ctx=4096."),
    ] = None,
) -> None:
    """Play a suite with an assistant and a user, score it, and write the run directory."""
    extra = {
        "max_calls_per_turn": max_calls_per_turn,
        "base_url": base_url,
        "api_key_env": api_key_env,
        "temperature": temperature,
        "seed": seed,
        "max_tokens": max_tokens,
        "timeout": timeout,
        "max_retries": max_retries,
        "cache": str(cache) if cache else None,
        "user_base_url": user_base_url,
        "user_api_key_env": user_api_key_env,
        "user_temperature": user_temperature,
    }
    options = {**_parse_options(option or []), **{k: v for k, v in extra.items() if v is not None}}
    system_text = prompt_text(system_prompt, "--system-prompt")
    user_text = prompt_text(user_prompt, "--user-prompt")
    if user_text is not None:
        options["user_prompt"] = user_text

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
            system_prompt=system_text,
            augment=augment or [],
            options=options,
        )
        return _progress_run(config)

    summary = _guard(action)
    render_summary(summary, console)
    console.print(f"Run written to [bold]{out}[/bold] (summary.json, trajectories/, run.sqlite)")
    console.print(f"HTML report: toolplay report {out}", highlight=False)
