"""`toolplay run`: parse options, build a `RunConfig`, execute it showing its progress."""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from pydantic import BaseModel

from toolplay.catalog import Catalog, CatalogError, build_catalog
from toolplay.cli._app import (
    _guard,
    app,
    catalog,
    command_name,
    console,
    err_console,
    exit_for_failed_trials,
    plugins,
)
from toolplay.cli._ci import CiLevel, CiResamples, CiSeed
from toolplay.cli._progress import LiveBar, PlainLines
from toolplay.cli._versions import Errata, SuiteVersionFlag, version_settings
from toolplay.clients import ModelOptions
from toolplay.conversation import PlaySettings, StaticSettings
from toolplay.runs import (
    Executor,
    LocalExecutor,
    RunConfig,
    RunError,
    RunStats,
    RunSummary,
    apply_options,
    default_out,
    execute_run,
    stored_settings,
)

ExecutorName = Literal["local", "ray"]


def _help(model: type[BaseModel], field: str) -> str:
    """An option's help: the description of the setting it fills (one definition)."""
    return model.model_fields[field].description or ""


def _executor(name: str, address: str | None, workers: int | None) -> Executor:
    """The executor `--executor` names (Ray is imported only when asked for)."""
    if name == "local":
        if address is not None:
            raise RunError("--ray-address: needs --executor ray")
        if workers is not None:
            raise RunError("--ray-workers: needs --executor ray")
        return LocalExecutor()
    from toolplay.runs._ray import RayExecutor

    return RayExecutor(address, workers)


def _progress_run(
    config: RunConfig,
    found: Catalog,
    stats: RunStats,
    announce: str | None,
    executor: Executor | None = None,
) -> RunSummary:
    """Execute `config` with its progress on stderr (`cli._progress`); `announce` is printed
    once the run has started (never above a refusal).
    """
    label = f"{config.suite} · {config.assistant}"
    live = LiveBar(err_console, label) if err_console.is_terminal else None
    shown = live if live is not None else PlainLines(err_console, label)
    said: list[bool] = []

    def report(done: int, total: int) -> None:
        if announce and not said:
            said.append(True)
            err_console.print(announce, highlight=False, soft_wrap=True)
        shown(done, total)

    try:
        return asyncio.run(
            execute_run(config, catalog=found, progress=report, stats=stats, executor=executor)
        )
    finally:
        if live is not None:
            live.stop()


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
    ctx: typer.Context,
    suite: Annotated[str, typer.Option(help=_help(RunConfig, "suite"))] = "quick",
    mode: Annotated[str | None, typer.Option(help=_help(RunConfig, "mode"))] = None,
    presentation: Annotated[str | None, typer.Option(help=_help(RunConfig, "presentation"))] = None,
    assistant: Annotated[str, typer.Option(help=_help(RunConfig, "assistant"))] = "oracle",
    user: Annotated[str, typer.Option(help=_help(RunConfig, "user"))] = "scripted",
    category: Annotated[
        list[str] | None,
        typer.Option(
            help="Only scenarios of this category (repeatable: any of them); before --limit."
        ),
    ] = None,
    limit: Annotated[int | None, typer.Option(help=_help(RunConfig, "limit"))] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Run directory to write (default: a new runs/SUITE-ASSISTANT-N; with "
            "--resume, the latest of those)."
        ),
    ] = None,
    concurrency: Annotated[int, typer.Option(help=_help(RunConfig, "concurrency"))] = 1,
    trials: Annotated[int, typer.Option(help=_help(RunConfig, "trials"))] = 1,
    resume: Annotated[bool, typer.Option(help=_help(RunConfig, "resume"))] = False,
    system_prompt: Annotated[
        str | None, typer.Option(help=_help(PlaySettings, "system_prompt"))
    ] = None,
    user_prompt: Annotated[
        str | None, typer.Option(help=_help(PlaySettings, "user_prompt"))
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
        typer.Option(min=1, help=_help(StaticSettings, "max_calls_per_turn")),
    ] = None,
    base_url: Annotated[str | None, typer.Option(help=_help(ModelOptions, "base_url"))] = None,
    api_key_env: Annotated[
        str | None, typer.Option(help=_help(ModelOptions, "api_key_env"))
    ] = None,
    temperature: Annotated[
        float | None, typer.Option(help=_help(ModelOptions, "temperature"))
    ] = None,
    seed: Annotated[int | None, typer.Option(help=_help(ModelOptions, "seed"))] = None,
    max_tokens: Annotated[int | None, typer.Option(help=_help(ModelOptions, "max_tokens"))] = None,
    timeout: Annotated[float | None, typer.Option(help=_help(ModelOptions, "timeout"))] = None,
    max_retries: Annotated[
        int | None, typer.Option(min=0, help=_help(ModelOptions, "max_retries"))
    ] = None,
    cache: Annotated[Path | None, typer.Option(help=_help(RunConfig, "cache"))] = None,
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
        typer.Option(
            help="Any other setting KEY=VALUE (repeatable): a model option for the assistant "
            "(e.g. local_n_ctx=4096), user_KEY for a model-driven user's, a play setting "
            "(e.g. max_rounds=8), a scoring setting (e.g. slot_matching=lenient), or ci_KEY "
            "for the summary's intervals (e.g. ci_method=percentile). "
            "Unknown keys are refused with the list of known ones."
        ),
    ] = None,
    ci_level: CiLevel = None,
    ci_resamples: CiResamples = None,
    ci_seed: CiSeed = None,
    executor: Annotated[
        ExecutorName,
        typer.Option(
            help="Where scenarios are played: local (asyncio in this process) or ray (Ray "
            "workers; extra toolplay[ray]). Results are the same either way."
        ),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(help="Ray cluster to use (default: RAY_ADDRESS, else a local instance)."),
    ] = None,
    ray_workers: Annotated[
        int | None,
        typer.Option(min=1, help="Ray worker actors, one CPU each (default: the cluster's CPUs)."),
    ] = None,
    errata: Errata = None,
    suite_version: SuiteVersionFlag = None,
) -> None:
    """Play a suite with an assistant and a user, score it, and write the run directory."""
    flags = {
        "max_calls_per_turn": max_calls_per_turn,
        "system_prompt": prompt_text(system_prompt, "--system-prompt"),
        "user_prompt": prompt_text(user_prompt, "--user-prompt"),
        "base_url": base_url,
        "api_key_env": api_key_env,
        "temperature": temperature,
        "seed": seed,
        "max_tokens": max_tokens,
        "timeout": timeout,
        "max_retries": max_retries,
        "user_base_url": user_base_url,
        "user_api_key_env": user_api_key_env,
        "user_temperature": user_temperature,
        "ci_level": ci_level,
        "ci_resamples": ci_resamples,
        "ci_seed": ci_seed,
    }

    given = {k: v for k, v in flags.items() if v is not None}
    options = {**_parse_options(option or []), **given}

    run_dir = out if out is not None else default_out(suite, assistant, resume=resume)
    announce = f"run folder: {run_dir}" if out is None else None

    def action() -> tuple[RunSummary, Catalog]:
        data: dict[str, Any] = {
            "suite": suite,
            "mode": mode,
            "presentation": presentation,
            "assistant": assistant,
            "user": user,
            "limit": limit,
            "out": run_dir,
            "concurrency": concurrency,
            "trials": trials,
            "resume": resume,
            "augment": augment or [],
            "categories": category or [],
            "cache": cache,
            "plugins": plugins(),
        }
        stored = stored_settings(run_dir) if resume else None
        if stored is not None:  # resume: the stored settings, what was given laid over them
            given = {
                k: v
                for k, v in data.items()
                if k == "plugins" and v or _given(ctx, _FLAGS.get(k, k))
            }
            kept = {k: v for k, v in stored.items() if k not in ("out", "resume")}
            data = {**kept, **given, "out": run_dir, "resume": True}
        if errata is not None or suite_version is not None:
            data["suite_version"] = version_settings(errata, suite_version)
        found = _catalog_for(data)  # a resumed run's stored plugins, when not given again
        config = RunConfig.model_validate(apply_options(data, options, found))
        run_executor = _executor(executor, ray_address, ray_workers)
        return _progress_run(config, found, stats, announce, run_executor), found

    stats = RunStats()
    summary, found = _guard(action)
    from toolplay.report import render_summary  # noqa: PLC0415 (startup time)

    render_summary(summary, console, found.scorers)
    served = stats.cache_hits
    if served:
        calls = served + stats.cache_misses
        console.print(
            f"served from the response cache: {served} of {calls} model call(s) "
            f"({'no new tokens spent' if not stats.cache_misses else 'the rest called'}; the "
            "token counts are those of the recorded calls)",
            highlight=False,
            soft_wrap=True,
        )
    console.print(
        f"Run written to [bold]{run_dir}[/bold] (summary.json, trajectories/, run.sqlite)"
    )
    console.print(
        f"HTML report: {command_name()} report {shlex.quote(str(run_dir))}", highlight=False
    )
    exit_for_failed_trials(summary, run_dir)


def _catalog_for(data: dict[str, Any]) -> Catalog:
    """The catalog of the run's plugins (a resumed run's stored ones, when not given again)."""
    wanted = list(data.get("plugins") or [])
    if wanted == plugins():
        return catalog()
    try:
        return build_catalog(wanted)
    except CatalogError as exc:
        raise RunError(f"--plugin: {exc}") from exc


_FLAGS = {"categories": "category"}
"""Config fields given by a differently named flag."""


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether option `name` was given (command line or environment), not defaulted."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")
