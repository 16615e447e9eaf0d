"""The Typer app, its error contract and the helpers every command shares.

Two kinds of error end a command (`toolplay.errors`):

- the user's input (a `InputError`, a bad run setting, a file that cannot be read): one line,
  `error: <what>: <why>`, on stderr, exit status 2. That holds for usage errors too (an
  unknown option, a value of the wrong type, a missing argument), which Click would otherwise
  print as a usage banner and a boxed message, and for a bad run setting, which names the
  option it came from;
- anything else is a bug (in toolplay or a plugin): one short line says so and where the
  traceback was written (a file in the temporary folder), exit status 70.

`--debug` shows the traceback instead, for both.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import os
import shlex
import shutil
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
import typer.main
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from toolplay import __version__
from toolplay.cli._lazy import declared_commands
from toolplay.errors import INFRASTRUCTURE, INTERNAL, SCORER_FAILED, USAGE, InputError

if TYPE_CHECKING:
    from pydantic import ValidationError

    from toolplay.catalog import Catalog
    from toolplay.runs import RunSummary

console = Console()
err_console = Console(stderr=True)
T = TypeVar("T")
_state: dict[str, Any] = {"debug": False, "plugins": [], "catalog": None}


def _print_error(message: str) -> None:
    """`error: message` as one line; the message is text, never rich markup."""
    text = " ".join(line.strip() for line in message.splitlines() if line.strip())
    err_console.print(f"[red]error:[/red] {escape(text)}", highlight=False, soft_wrap=True)


class _WarningLines(logging.Handler):
    """toolplay's log records as `warning: <message>` lines on stderr, in one format.

    Printed through the rich console, so a line lands above a live progress bar instead of
    tearing it; the traceback of a record that carries one is shown only with `--debug`.
    """

    def emit(self, record: logging.LogRecord) -> None:
        try:
            label = "warning" if record.levelno >= logging.WARNING else "info"
            text = record.getMessage()
            if _state["debug"] and record.exc_info and record.exc_info[1] is not None:
                text += "\n" + "".join(traceback.format_exception(*record.exc_info)).rstrip()
            err_console.print(
                f"[yellow]{label}:[/yellow] {escape(text)}", highlight=False, soft_wrap=True
            )
        except Exception:  # a log line must never sink the command
            self.handleError(record)


def _configure_logging(debug: bool) -> None:
    """Route the `toolplay` loggers to `_WarningLines` (warnings; with --debug, info too).

    They stop there: a library that configures the root logger (absl, imported with
    rouge-score, calls `logging.basicConfig()` on its first log) would otherwise print every
    toolplay warning a second time, as `WARNING:toolplay...`, tearing the progress bar.
    """
    root = logging.getLogger("toolplay")
    for handler in [h for h in root.handlers if isinstance(h, _WarningLines)]:
        root.removeHandler(handler)
    root.addHandler(_WarningLines())
    root.setLevel(logging.INFO if debug else logging.WARNING)
    root.propagate = False


def _click_error(name: str) -> type[Exception]:
    """Click's exception class `name`, as Typer raises it.

    Recent Typer versions vendor their own copy of Click, whose exceptions the installed
    `click` package's classes do not catch; Typer's public `BadParameter` leads to the right
    ones either way.
    """
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


_CLICK_ERROR, _USAGE_ERROR = _click_error("ClickException"), _click_error("UsageError")


class _OneLineUsageErrors(TyperGroup):
    """Click's usage errors as one `error:` line (see the module docstring); commands are
    imported only when they run (`cli._lazy`), so `--help` and light commands start fast.
    """

    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        declared = [c.name for c in declared_commands()]
        return declared + [name for name in self.commands if name not in declared]

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:  # type: ignore[override]
        if cmd_name not in self.commands:
            self._load(cmd_name)
        return self.commands.get(cmd_name)

    def _load(self, name: str) -> None:
        """Import the module declaring command `name`, and take in what it registered."""
        module = next((c.module for c in declared_commands() if c.name == name), None)
        if module is None:
            return
        importlib.import_module(module)
        for info in app.registered_commands:
            wanted = info.name or typer.main.get_command_name(info.callback.__name__)  # type: ignore[union-attr]
            if wanted not in self.commands:
                self.commands[wanted] = typer.main.get_command_from_info(
                    info,
                    pretty_exceptions_short=app.pretty_exceptions_short,
                    rich_markup_mode=app.rich_markup_mode,
                )

    def format_commands(self, ctx: typer.Context, formatter: Any) -> None:  # type: ignore[override]
        """The command list from the modules' declarations, without importing them."""
        docs = {c.name: c.help for c in declared_commands()}
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max((len(n) for n in names), default=0)
        rows = []
        for name in names:
            loaded = self.commands.get(name)
            command = loaded or TyperCommand(name, help=docs.get(name, ""))
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

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
        except Exception as exc:  # a command let a bug through (outside `_guard`)
            if _state["debug"]:
                raise
            report_bug(exc)
            sys.exit(INTERNAL)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_OneLineUsageErrors,
    add_completion=False,
    # Click's plain help: it wraps at any terminal width (80 columns included), where the
    # boxed rich help cut option names and descriptions short.
    rich_markup_mode=None,
    no_args_is_help=True,
    help="Evaluate how well AI assistants use tools in conversation.",
)


@app.callback()
def main(
    debug: Annotated[bool, typer.Option(help="Show tracebacks on errors.")] = False,
    plugin: Annotated[
        list[str] | None,
        typer.Option(
            help="A plugin module (dotted name or .py file) whose register(catalog) adds "
            "domains, suites, modes, scorers or roles (repeatable). Installed plugins "
            "(entry points `toolplay.plugins`) load without it.",
        ),
    ] = None,
) -> None:
    """toolplay: play tool-use conversations against simulated worlds and score them."""
    _state["debug"] = debug
    _configure_logging(debug)
    _state["plugins"] = list(plugin or [])
    _state["catalog"] = None


def command_name() -> str:
    """How this process was invoked, for hints that work as printed.

    `toolplay` when that name on PATH is this program; the path as typed otherwise (e.g.
    `.venv/bin/toolplay` from `make`, whose venv is not activated); `python -m toolplay.cli`
    for a module run; plain `toolplay` when the CLI is called from Python (tests, scripts).
    """
    argv0 = sys.argv[0] if sys.argv else ""
    name = os.path.basename(argv0)
    if name == "__main__.py" and os.path.basename(os.path.dirname(argv0)) == "cli":
        return "python -m toolplay.cli"
    if name != "toolplay":
        return "toolplay"
    found = shutil.which("toolplay")
    if found and os.path.realpath(found) == os.path.realpath(argv0):
        return "toolplay"
    return shlex.quote(argv0)


def plugins() -> list[str]:
    """The `--plugin` modules given on the command line."""
    return list(_state["plugins"])


def catalog() -> Catalog:
    """The catalog for this command: built-ins, installed plugins, `--plugin` modules."""
    from toolplay.catalog import build_catalog  # noqa: PLC0415 (start-up time: cli._lazy)

    if _state["catalog"] is None:
        _state["catalog"] = _guard(lambda: build_catalog(plugins()))
    found: Catalog = _state["catalog"]
    return found


def _guard(action: Callable[[], T]) -> T:
    """`action()`; the user's input errors become one line (exit 2), anything else a bug
    report (exit 70): see the module docstring.
    """
    try:
        return action()
    except (KeyboardInterrupt, typer.Exit, _CLICK_ERROR):
        raise
    except Exception as exc:
        if _state["debug"]:
            raise
        if user_facing(exc):
            _print_error(_describe(exc))
            raise typer.Exit(USAGE) from None
        report_bug(exc)
        raise typer.Exit(INTERNAL) from None


def user_facing(exc: BaseException) -> bool:
    """Whether `exc` is about what the user gave (else it is a bug)."""
    from pydantic import ValidationError  # noqa: PLC0415 (start-up time: cli._lazy)

    from toolplay.runs import RunConfig  # noqa: PLC0415

    if isinstance(exc, ValidationError):
        return exc.title == RunConfig.__name__  # a run setting, named by its option
    return isinstance(exc, InputError | OSError)  # a file that cannot be read or written


def report_bug(exc: BaseException) -> None:
    """Say, in one line, that `exc` is a bug, and where its traceback was written."""
    text = "".join(traceback.format_exception(exc))
    command = " ".join(shlex.quote(a) for a in sys.argv)
    try:
        handle, name = tempfile.mkstemp(prefix="toolplay-traceback-", suffix=".txt")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(f"toolplay {__version__}\n{command}\n\n{text}")
        where = f"the traceback is in {name}"
    except OSError:
        where = "run again with --debug for the traceback"
    what = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
    _print_error(
        f"internal error, a bug in toolplay or a plugin (not in what you gave): {what}; {where}"
    )


def exit_for_failed_trials(summary: RunSummary, run_dir: Path, *, played: bool = True) -> None:
    """After `run` (`played`) or `score`: say which trials were not scored, and exit with the
    status that says why (a scorer's bug first, then, after `run`, infrastructure errors; see
    `toolplay.errors`). A scorer's failure reads the same after either command.
    """
    from toolplay.runs import scorer_failure  # noqa: PLC0415 (start-up time: cli._lazy)

    failed = [e for e in summary.error_list if scorer_failure(e.error)]
    broken = summary.errors - len(failed) if played else 0
    folder = shlex.quote(str(run_dir))
    if broken:
        err_console.print(
            f"{broken} scenario trial(s) ended in an infrastructure error (not scored; "
            f"see error_list in summary.json); play them again with: "
            f"{command_name()} run --resume --out {folder}",
            highlight=False,
            soft_wrap=True,
        )
    if failed:
        first = (failed[0].error or "").splitlines()[0]
        err_console.print(
            f"{len(failed)} scenario trial(s) could not be scored: the scorer failed (a bug "
            f"in the scorer, not in the assistant: {first}); they are listed in error_list in "
            f"summary.json with the traceback; once it is fixed, score them with: "
            f"{command_name()} score {folder}",
            highlight=False,
            soft_wrap=True,
        )
        raise typer.Exit(SCORER_FAILED)
    if broken:
        raise typer.Exit(INFRASTRUCTURE)


def _describe(exc: Exception) -> str:
    """The `<what>: <why>` of an error; a config value names the command-line option."""
    from pydantic import ValidationError  # noqa: PLC0415 (start-up time: cli._lazy)

    from toolplay.runs import OptionError, RunConfig, SettingError  # noqa: PLC0415

    if isinstance(exc, ValidationError) and exc.title == RunConfig.__name__:
        return _setting_problem(exc)
    if isinstance(exc, OptionError):
        return f"--option: {exc}"
    if isinstance(exc, SettingError):
        return f"{_flag(exc.option)}: {exc.reason}"
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {(exc.strerror or str(exc)).lower()}"
    return str(exc)


def _run_flags() -> set[str]:
    """Parameter names of the `run` command (registered by `cli._run`)."""
    for command in app.registered_commands:
        if command.callback is not None and command.callback.__name__ == "run":
            return set(inspect.signature(command.callback).parameters)
    return set()


def _option_key(loc: list[str]) -> str | None:
    """The flat option key (`temperature`, `user_temperature`, `ci_level`) of a RunConfig
    error location: the `option_keys` entry of its (section, field).
    """
    from toolplay.catalog import Catalog  # noqa: PLC0415 (start-up time: cli._lazy)
    from toolplay.runs import option_keys  # noqa: PLC0415

    if not loc:
        return None
    flat = {place: key for key, place in option_keys(Catalog()).items()}
    return flat.get((loc[0], loc[1]), loc[0]) if len(loc) > 1 else loc[0]


def _setting_problem(exc: ValidationError) -> str:
    """A RunConfig value error as `--option: reason (got value)`."""
    from toolplay.runs import problem_text  # noqa: PLC0415 (start-up time: cli._lazy)

    problems = exc.errors()
    first = problems[0]
    context = first.get("ctx") or {}
    loc = [str(part) for part in first["loc"]]
    name = str(context.get("option") or _option_key(loc) or exc.title)
    more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
    return f"{_flag(name)}: {problem_text(first)}{more}"


def _flag(name: str) -> str:
    """How a setting is given on the command line: its `run` flag, else `--option NAME`."""
    flags = _run_flags()  # the `run` command builds every RunConfig
    return f"--{name.replace('_', '-')}" if name in flags else f"--option {name}"
