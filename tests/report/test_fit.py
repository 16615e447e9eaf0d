"""Terminal tables at any width: no value, name or header word is ever split or cut (issue 24
item 4): they print whole, narrowed between words, or paged by columns."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table
from rich.text import Text

from toolplay.report._fit import print_fitted

BOX = re.compile(r"[─-╿]")
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_.", min_size=1, max_size=14)
NUMBER = st.floats(0, 1e5, allow_nan=False).map(lambda v: f"{v:,.3f}")
INTERVAL = st.tuples(NUMBER, NUMBER).map("–".join)


def words(text: str) -> list[str]:
    """The words of a rendering, borders (and a listed page's `header:` and `·`) taken away."""
    return [w.removesuffix(":") for w in BOX.sub(" ", text).split() if w != "·"]


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    columns = draw(st.integers(2, 9))
    headers = [" ".join(draw(st.lists(WORD, min_size=1, max_size=3))) for _ in range(columns)]
    rows = [
        [
            " ".join(draw(st.lists(WORD, min_size=1, max_size=4))),
            *(draw(st.one_of(NUMBER, INTERVAL)) for _ in range(columns - 1)),
        ]
        for _ in range(draw(st.integers(1, 6)))
    ]
    return headers, rows


def render(headers: list[str], rows: list[list[str]], width: int) -> str:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    table = Table(title="T", title_justify="left")
    for i, header in enumerate(headers):
        table.add_column(header, justify="right" if i else "left")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    print_fitted(console, table)
    return console.export_text()


@settings(max_examples=150, deadline=None)
@given(tables(), st.integers(40, 160))
def test_nothing_is_split_or_cut_at_any_width(
    table: tuple[list[str], list[list[str]]], width: int
) -> None:
    headers, rows = table
    out = render(headers, rows, width)
    given_words = {w for text in [*headers, *(c for r in rows for c in r)] for w in text.split()}
    assert set(words(out)) <= given_words | {"T,", "T", "continued"}, out
    assert "…" not in out
    assert all(len(line) <= width for line in out.splitlines()), out
    for row in rows:  # every value is printed, on one line
        for cell in row[1:]:
            assert cell in out, (cell, out)


def test_a_table_that_fits_is_printed_as_rich_prints_it() -> None:
    headers, rows = ["name", "value"], [["alpha beta", "0.500"]]
    assert render(headers, rows, 80).splitlines()[2] == "┃ name       ┃ value ┃"


def test_a_wide_table_pages_its_columns_behind_the_names() -> None:
    headers = ["domain", *(f"metric number {i}" for i in range(8))]
    rows = [["device_manipulation", *(f"0.{i}00–0.{i}99" for i in range(8))]]
    out = render(headers, rows, 80)
    assert "T, continued" in out
    assert out.count("device_manipulation") >= 2  # the names repeat on every page
