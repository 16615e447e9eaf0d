"""The `toolplay` command line: parse options, build a config, call one library function.

Errors print one line, `error: <what>: <why>`, on stderr and exit non-zero (2); `--debug`
shows the traceback instead. That holds for usage errors too (an unknown option, a value of
the wrong type, a missing argument), which Click would otherwise print as a usage banner and
a boxed message, and for a bad run setting, which names the option it came from.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar, cast

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from typer.core import TyperGroup

from toolplay.report import (
    compare_runs,
    render_comparison,
    render_summary,
    write_comparison,
    write_report,
)
from toolplay.runs import Mode, RunConfig, execute_run, rescore_run
from toolplay.scenarios import BUILTIN, IMPORTERS, Suite, augmentation_of, load_suite
from toolplay.validate import validate_suite

console = Console()
err_console = Console(stderr=True)
T = TypeVar("T")
_state: dict[str, bool] = {"debug": False}


def _print_error(message: str) -> None:
    """`error: message` as one line; the message is text, never rich markup."""
    text = " ".join(line.strip() for line in message.splitlines() if line.strip())
    err_console.print(f"[red]error:[/red] {escape(text)}", highlight=False, soft_wrap=True)


def _click_error(name: str) -> type[Exception]:
    """Click's exception class `name`, as Typer raises it.

    Recent Typer versions vendor their own copy of Click, whose exceptions the installed
    `click` package's classes do not catch; Typer's public `BadParameter` leads to the right
    ones either way.
    """
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


_CLICK_ERROR, _USAGE_ERROR = _click_error("ClickException"), _click_error("UsageError")


class _OneLineUsageErrors(TyperGroup):
    """Click's usage errors as one `error:` line (see the module docstring)."""

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        def invoke() -> Any:
            return super(_OneLineUsageErrors, self).main(
                args, prog_name, complete_var, standalone_mode=False, **extra
            )

        if not standalone_mode or not (sys.argv[1:] if args is None else args):
            # No arguments at all: the help text, as Typer prints it (`no_args_is_help`).
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = invoke()  # the exit code of a typer.Exit; None when a command returned
        except _CLICK_ERROR as exc:
            context = getattr(exc, "ctx", None) if isinstance(exc, _USAGE_ERROR) else None
            hint = f" (see '{context.command_path} --help')" if context else ""
            _print_error(f"{exc.format_message()}{hint}")  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        except typer.Abort:
            _print_error("aborted")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_OneLineUsageErrors,
    add_completion=False,
    no_args_is_help=True,
    help="Evaluate how well AI assistants use tools in conversation.",
)


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
        _print_error(_describe(exc))
        raise typer.Exit(2) from None


def _describe(exc: Exception) -> str:
    """The `<what>: <why>` of an error; a config value names the command-line option."""
    if isinstance(exc, ValidationError) and exc.title == RunConfig.__name__:
        return _setting_problem(exc)
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {(exc.strerror or str(exc)).lower()}"
    return str(exc)


def _setting_problem(exc: ValidationError) -> str:
    """A RunConfig value error as `--option: reason (got value)`."""
    problems = exc.errors()
    first = problems[0]
    context = first.get("ctx") or {}
    loc = [str(part) for part in first["loc"]]
    name = str(context.get("option") or (loc[0] if loc else exc.title))
    flags = inspect.signature(run).parameters  # the `run` command builds every RunConfig
    flag = f"--{name.replace('_', '-')}" if name in flags else f"--option {name}"
    if first["type"] == "run_option":
        reason = str(context["reason"])
    elif first["type"] == "value_error":
        reason = str(context.get("error", first["msg"]))
    else:
        reason = f"{first['msg'][:1].lower()}{first['msg'][1:]} (got {first.get('input')!r})"
    more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
    return f"{flag}: {reason}{more}"


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
            options=options,
        )
        return _progress_run(config)

    summary = _guard(action)
    render_summary(summary, console)
    console.print(f"Run written to [bold]{out}[/bold] (summary.json, trajectories/, run.sqlite)")
    console.print(f"HTML report: toolplay report {out}", highlight=False)


@app.command()
def validate(
    suite: Annotated[str, typer.Option(help="Suite name, NAME:ARG importer, or path.")] = "quick",
    mode: Annotated[str | None, typer.Option(help="static or dynamic (default: suite's).")] = None,
) -> None:
    """Check a suite: every file loads and the oracle scores perfectly on every scenario."""
    report = _guard(lambda: validate_suite(suite, mode))
    if report.failures:
        for failure in report.failures:
            err_console.print(f"[red]FAIL[/red] {failure}", highlight=False, soft_wrap=True)
        err_console.print(f"{len(report.failures)} problem(s) in {report.checked} scenario(s)")
        raise typer.Exit(1)
    console.print(f"ok: {report.checked} scenario(s) in suite {suite!r} passed validation")


@app.command()
def suites() -> None:
    """List the built-in suites and importers with scenario counts by category.

    Suites with generated variants (sandbox) also count scenarios by augmentation setting and
    world-state variant, and list the variants skipped as unsound.
    """
    table = Table("suite", "scenarios", "categories", "variants", "description")
    notes: list[str] = []
    for name, (description, _) in BUILTIN.items():
        loaded = _guard(lambda name=name: load_suite(name))  # type: ignore[misc]
        counts: dict[str, int] = {}
        for scenario in loaded.scenarios:
            for category in scenario.categories:
                counts[category] = counts.get(category, 0) + 1
        cats = "\n".join(f"{k} {v}" for k, v in sorted(counts.items()))
        table.add_row(name, str(len(loaded)), cats, _variant_counts(loaded), description)
        skipped = cast(list[tuple[str, str]], loaded.extra.get("skipped_variants", []))
        notes += [f"{name}: skipped unsound variant {vid}: {why}" for vid, why in skipped]
    for prefix, (description, _) in IMPORTERS.items():
        table.add_row(f"{prefix}:…", "-", "-", "-", description)
    console.print(table)
    for note in notes:
        console.print(note, highlight=False, soft_wrap=True)


def _variant_counts(suite: Suite) -> str:
    """Base and world-state counts and scenarios per augmentation setting ('-' if none)."""
    if not any(s.augmentation or s.metadata.get("state_variant") for s in suite.scenarios):
        return "-"
    by_augmentation = Counter(augmentation_of(s) for s in suite.scenarios)
    plain = [s for s in suite.scenarios if not s.augmentation]
    states = Counter(str(s.metadata.get("state_variant")) for s in plain)
    states.pop("None", None)
    parts = [f"base {len(plain) - sum(states.values())}"]
    parts += [f"~{k} {v}" for k, v in sorted(states.items())]
    parts += [f"@{k} {v}" for k, v in by_augmentation.items()]
    return "\n".join(parts)


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


@app.command()
def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory.")],
    out: Annotated[
        Path | None, typer.Option(help="Where to write (default RUN_DIR/report.html).")
    ] = None,
) -> None:
    """Write a self-contained HTML report of a run (reads the run directory only)."""
    written = _guard(lambda: write_report(run_dir, out))
    console.print(f"Report written to [bold]{written}[/bold]", highlight=False)


@app.command()
def compare(
    run_dirs: Annotated[list[Path], typer.Argument(help="Two or more run directories.")],
    human: Annotated[
        Path | None, typer.Option(help="CSV of human scores: scenario_id,score per row.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Also write the comparison as HTML to this file.")
    ] = None,
) -> None:
    """Compare runs side by side, with per-scenario agreement (Pearson, Spearman, ICC(3,1))."""
    comparison = _guard(lambda: compare_runs(run_dirs, human))
    # The file first: a failure to write it is then the only thing printed.
    written = None
    if out is not None:
        written = _guard(lambda: write_comparison(comparison, out, human_file=human))
    render_comparison(comparison, console)
    if written is not None:
        console.print(f"Comparison written to [bold]{written}[/bold]", highlight=False)


if __name__ == "__main__":  # pragma: no cover
    app()
