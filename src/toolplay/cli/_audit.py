"""`toolplay audit RUN_DIR…`: which scenarios of a suite can be trusted, from runs of it."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from toolplay.cli._app import _guard, app, console

_OUT = Path("audit")


def _described(field: str) -> str:
    from toolplay.analysis import AuditSettings  # noqa: PLC0415 (startup time)

    return AuditSettings.model_fields[field].description or ""


@app.command()
def audit(
    run_dirs: Annotated[
        list[Path], typer.Argument(help="Runs of one suite (any assistants, modes, trials).")
    ],
    out: Annotated[
        Path,
        typer.Option(
            help="Folder for audit.json, audit.csv, audit.html, errata.proposed.yaml and the "
            "baselines the audit plays."
        ),
    ] = _OUT,
    baselines: Annotated[
        bool,
        typer.Option(
            help="Play the floor (no-call) and the ceiling (oracle) for the runs' modes when "
            "no such run is given (no model; seconds)."
        ),
    ] = True,
    top: Annotated[int, typer.Option(min=0, help="Flagged scenarios to print.")] = 20,
    reach: Annotated[
        float,
        typer.Option(help="A milestone counts as reached at this similarity or more."),
    ] = 1.0,
    unstable: Annotated[
        float,
        typer.Option(help="Mean trial disagreement at which a scenario is flagged unstable."),
    ] = 0.5,
    ci_level: Annotated[
        float, typer.Option(help="Confidence level of the discrimination intervals.")
    ] = 0.95,
    mixed_versions: Annotated[
        bool,
        typer.Option(help="Audit runs scored against different suite versions together."),
    ] = False,
) -> None:
    """Item analysis of a suite from runs of it: per scenario its scores, solve rate, floor and
    ceiling, trial disagreement and discrimination, flags with stated rules, most suspect first.

    Exits 0 once the files are written (flags are findings, not failures), 2 when refused.
    """
    from toolplay.analysis import (  # noqa: PLC0415 (startup time)
        Audit,
        AuditInput,
        AuditSettings,
        ReportError,
        audit_runs,
        check_inputs,
        load_run,
        play_missing_baselines,
        run_role,
    )
    from toolplay.report import render_audit, write_audit  # noqa: PLC0415 (startup time)

    def settings() -> AuditSettings:
        try:
            return AuditSettings(level=ci_level, reach=reach, unstable=unstable)
        except ValidationError as exc:
            problem = exc.errors()[0]
            flag = {"level": "--ci-level"}.get(str(problem["loc"][0]), f"--{problem['loc'][0]}")
            raise ReportError(f"{flag}: {problem['msg'][:1].lower()}{problem['msg'][1:]}") from None

    def run_audit() -> tuple[Audit, list[Path]]:
        chosen = settings()
        if not run_dirs:
            raise ReportError("audit needs one or more run directories")
        runs = [load_run(path) for path in run_dirs]
        names = [r.label for r in runs]
        labels = names if len(set(names)) == len(names) else [str(r.path) for r in runs]
        inputs = [AuditInput(label, r, run_role(r)) for label, r in zip(labels, runs, strict=True)]
        check_inputs(inputs, mixed_versions=mixed_versions)  # refuse before playing anything
        notes: list[str] = []
        if baselines:
            logging.getLogger("toolplay").setLevel(logging.WARNING)
            played, notes = asyncio.run(play_missing_baselines(inputs, out / "baselines"))
            inputs += played
        found = audit_runs(inputs, chosen, mixed_versions=mixed_versions)
        found = found.model_copy(update={"notes": [*found.notes, *notes]})
        return found, write_audit(found, out)

    result, written = _guard(run_audit)
    render_audit(result, console, top=top)
    reports = [p for p in written if p.parent != out]
    for path in reports:
        console.print(f"wrote the run report {path} (for the trajectory links)", highlight=False)
    files = ", ".join(p.name for p in written if p.parent == out)
    console.print(f"Audit written to [bold]{out}[/bold] ({files})")
