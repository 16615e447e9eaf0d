"""`toolplay baselines RUN_DIR`: the run beside its floor (no-call) and ceiling (oracle)."""

from __future__ import annotations

import asyncio
import logging
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from toolplay.cli._app import _guard, app, command_name, console, plugins
from toolplay.report import render_baselines
from toolplay.runs import Baselines, load_summary, play_baselines, run_catalog, save_baselines


@app.command()
def baselines(run_dir: Annotated[Path, typer.Argument(help="A run directory.")]) -> None:
    """Show a run beside its floor (no-call) and ceiling (oracle) on the same scenarios.

    Both are played again (no model is called; seconds), in a temporary folder; their
    summaries are kept in RUN_DIR/baselines.json, where the HTML report finds them.
    """

    def play() -> Baselines:
        with tempfile.TemporaryDirectory(prefix="toolplay-baselines-") as work:
            logging.getLogger("toolplay").setLevel(logging.WARNING)
            return asyncio.run(play_baselines(run_dir, Path(work)))

    summary = _guard(lambda: load_summary(run_dir))
    found = _guard(play)
    _guard(lambda: save_baselines(run_dir, found))
    scorers = _guard(lambda: run_catalog(run_dir, plugins())).scorers
    render_baselines(summary, found, run_dir, console, command_name(), scorers)
