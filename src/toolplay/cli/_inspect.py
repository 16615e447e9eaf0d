"""`toolplay import-inspect`: an Inspect log of a toolplay task, as a toolplay run folder.

`inspect_ai` is imported only when the command runs, so the CLI starts as fast without the
`inspect` extra (or with it) as before. Like `toolplay run`, it exits with status 3 when some
samples ended in an error (or the log has none), since `inspect eval` itself exits 0 then.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolplay.cli._app import _guard, app, catalog, console, err_console
from toolplay.errors import INFRASTRUCTURE, InputError
from toolplay.runs import RunSummary


@app.command("import-inspect")
def import_inspect(
    log: Annotated[
        Path, typer.Argument(help="An Inspect log (.eval or .json) of a toolplay task.")
    ],
    out: Annotated[Path, typer.Option(help="The run folder to write (new or empty).")],
) -> None:
    """Read an Inspect log of `inspect eval toolplay/...` into a run folder (report, compare)."""

    def load() -> RunSummary:
        try:
            from toolplay.integrations.inspect import import_inspect_log
        except ImportError as exc:
            raise InputError(
                f"reading Inspect logs needs the inspect extra: pip install 'toolplay[inspect]' "
                f"({exc})"
            ) from exc
        return import_inspect_log(log, out)

    summary = _guard(load)
    from toolplay.report import render_summary  # noqa: PLC0415 (jinja2 etc.: startup time)

    render_summary(summary, console, catalog().scorers)
    console.print(f"Run folder written to [bold]{out}[/bold]", highlight=False)
    if summary.errors or not summary.scenarios:
        # Inspect's own `inspect eval` exits 0 whatever its samples did; the import is where
        # toolplay can tell a script that the log holds no usable result.
        what = (
            f"{summary.errors} sample(s) of the log ended in an error (not scored; see "
            f"error_list in summary.json); play them again with: inspect eval-retry {log}"
            if summary.errors
            else "the log holds no sample"
        )
        err_console.print(what, highlight=False, soft_wrap=True)
        raise typer.Exit(INFRASTRUCTURE)
