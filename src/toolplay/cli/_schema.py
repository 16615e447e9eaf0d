"""`toolplay schema NAME`: print the JSON Schema of a file toolplay reads or writes."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from toolplay.analysis import ANALYSIS_SCHEMAS
from toolplay.cli._app import _guard, app, catalog
from toolplay.errors import InputError
from toolplay.runs import SCHEMAS, json_schema


@app.command()
def schema(
    name: Annotated[
        str, typer.Argument(help=f"One of: {', '.join([*SCHEMAS, *ANALYSIS_SCHEMAS])}.")
    ],
) -> None:
    """Print the JSON Schema of summary.json, a trajectory line, config.json, a scenario, an
    errata file or audit.json.
    """
    found = _guard(lambda: _schema(name))
    typer.echo(json.dumps(found, indent=2, sort_keys=True))


def _schema(name: str) -> dict[str, object]:
    try:
        return json_schema(name, catalog(), ANALYSIS_SCHEMAS)
    except KeyError as exc:
        raise InputError(str(exc.args[0])) from None
