"""`toolplay glossary`: every metric, its range, origin and aggregation (from the catalog).

A terminal of 120 columns or more gets one table; a narrower one gets one block per metric
(its name and method on a line of their own, then the meaning, range and aggregation
wrapped between words), since six columns at 80 columns would leave the meaning a few
letters wide and cut the names.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from toolplay.cli._app import app, catalog, console

WIDE = 120
"""Columns from which the glossary prints as a table."""


@app.command(name="glossary")
def glossary_command(
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the Markdown table (docs/results.md's copy).")
    ] = False,
) -> None:
    """Explain every metric: what it means, its range, how it aggregates, where it comes from."""
    from toolplay.report import glossary, glossary_markdown  # noqa: PLC0415 (startup time)

    built = catalog()
    scorers, checks = built.scorers, built.user_checks.values()
    if markdown:
        typer.echo(glossary_markdown(scorers, checks), nl=False)
        return
    rows = [
        [cell.replace("`", "") for cell in row] for row in glossary(scorers, user_checks=checks)
    ]
    if console.width < WIDE:
        console.print(Text("Metrics", style="bold"))
        for metric, scorer, meaning, scale, aggregation, origin in rows:
            console.print()
            head = Text(metric, style="bold")
            head.append(f"  ({scorer} · from {origin})", style="dim")
            console.print(head)
            body = Text(f"{meaning}\nrange: {scale}\naggregation: {aggregation}")
            console.print(Padding(body, (0, 0, 0, 4), expand=False))
        return
    table = Table(title="Metrics", title_justify="left", header_style="dim", show_lines=True)
    for column in ("metric", "reported by", "meaning", "range", "aggregation", "from"):
        table.add_column(column)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)
