"""`toolplay glossary`: every metric, its range, origin and aggregation (from the catalog)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from toolplay.cli._app import app, catalog, console
from toolplay.report import glossary, glossary_markdown


@app.command(name="glossary")
def glossary_command(
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the Markdown table (the README's copy).")
    ] = False,
) -> None:
    """Explain every metric: what it means, its range, how it aggregates, where it comes from."""
    built = catalog()
    scorers, checks = built.scorers, built.user_checks.values()
    if markdown:
        typer.echo(glossary_markdown(scorers, checks), nl=False)
        return
    table = Table(title="Metrics", title_justify="left", header_style="dim", show_lines=True)
    for column in ("metric", "reported by", "meaning", "range", "aggregation", "from"):
        table.add_column(column)
    for row in glossary(scorers, user_checks=checks):
        table.add_row(*(Text(cell.replace("`", "")) for cell in row))
    console.print(table)
