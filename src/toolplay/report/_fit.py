"""Terminal tables that never cut or split a value, a name or a header word.

rich shrinks a table that is wider than the terminal by wrapping its widest columns first
and then by folding or cutting words ("scenari/os", "0.539–0.59/4", "milestone…"), whatever
each column's minimum. Here the widths are chosen before rich sees the table. Each column
has a *whole* width — its longest header word, and for a value column (right aligned) its
widest value, for a name column (left aligned) its longest word, so a name wraps only where
it has a space — and a *natural* width (its widest line). When the natural widths fit the
terminal the table prints as it is; when only the whole widths fit, each column gets its whole
width and the room left goes to the columns that need the least more to be natural (so as
many as possible print on one line); when not even the whole widths fit, the table is
*paged*: cut into several tables by columns, each repeating the first `keep` columns (the
row names), the later ones titled `..., continued`; a page too narrow for even one column
beside the names is printed as a list (names, then `header: value` lines).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

__all__ = ["fits", "pages", "print_fitted"]


def _lines(cell: object) -> list[str]:
    return (cell.plain if isinstance(cell, Text) else str(cell)).splitlines() or [""]


def _texts(column: Column) -> tuple[list[str], list[str]]:
    """The header's lines and the cells' lines of a column."""
    return _lines(column.header), [line for cell in column.cells for line in _lines(cell)]


def _longest_word(lines: Sequence[str]) -> int:
    return max((len(word) for line in lines for word in line.split()), default=0)


def whole_width(column: Column) -> int:
    """The narrowest the column can be without folding a word or wrapping a value."""
    header, cells = _texts(column)
    values = max((len(c) for c in cells), default=0) if column.justify == "right" else 0
    return max(_longest_word(header), _longest_word(cells), values, 1)


def natural_width(column: Column) -> int:
    """The column's width with every header and cell on one line."""
    header, cells = _texts(column)
    return max((len(line) for line in [*header, *cells]), default=1)


def _extra(table: Table) -> int:
    """Columns of padding and borders around and between `table`'s cells."""
    count = len(table.columns)
    _, right, _, left = table.padding
    borders = (count - 1 + (2 if table.show_edge else 0)) if table.box else 0
    return count * (left + right) + borders


def fits(table: Table, console: Console) -> bool:
    """Whether `table` fits the console with every column at least its whole width."""
    return sum(whole_width(c) for c in table.columns) + _extra(table) <= console.width


def _allot(table: Table, width: int) -> None:
    """Fix each column's width: whole, plus the room left, neediest-last (see the module)."""
    wholes = [whole_width(c) for c in table.columns]
    naturals = [natural_width(c) for c in table.columns]
    room = width - sum(wholes) - _extra(table)
    widths = list(wholes)
    for index in sorted(range(len(widths)), key=lambda i: naturals[i] - wholes[i]):
        grant = min(room, naturals[index] - wholes[index])
        widths[index] += grant
        room -= grant
    for column, chosen in zip(table.columns, widths, strict=True):
        column.width = chosen


def _with_columns(table: Table, indices: Sequence[int], title: str | None) -> Table:
    """A new table like `table` holding only the columns at `indices`, in order."""
    chosen = [table.columns[i] for i in indices]
    page = Table(
        title=title,
        title_justify=table.title_justify,
        title_style=table.title_style,
        header_style=table.header_style,
        box=table.box,
        show_lines=table.show_lines,
        show_header=table.show_header,
    )
    for column in chosen:
        page.add_column(
            column.header,
            justify=column.justify,
            style=column.style,
            header_style=column.header_style,
            no_wrap=column.no_wrap,
            overflow=column.overflow,
        )
    cells = [list(column.cells) for column in chosen]
    for row in range(table.row_count):
        page.add_row(*(column[row] for column in cells))
    return page


def pages(table: Table, console: Console, keep: int = 1) -> list[Table]:
    """`table` cut by columns into tables that fit (each repeats the first `keep` columns).

    A page holds as many further columns as fit; a column that does not fit even alone beside
    the kept ones gets a page of its own (printed as a list by `print_fitted`).
    """
    title = table.title if isinstance(table.title, str) else None
    groups: list[list[int]] = []
    for index in range(keep, len(table.columns)):
        trial = [*groups[-1], index] if groups else []
        if trial and fits(_with_columns(table, [*range(keep), *trial], None), console):
            groups[-1] = trial
        else:
            groups.append([index])
    later = f"{title}, continued" if title else None
    return [
        _with_columns(table, [*range(keep), *group], title if number == 0 else later)
        for number, group in enumerate(groups)
    ]


def _print_listed(console: Console, table: Table, keep: int) -> None:
    """A page too narrow for even one column beside the names, as a list: each row's names,
    then `header: value` per column, indented.
    """
    if isinstance(table.title, str):
        console.print(Text(table.title, style="bold"))
    cells = [list(column.cells) for column in table.columns]
    headers = [" ".join(_lines(column.header)) for column in table.columns]
    for row in range(table.row_count):
        names = " · ".join(" ".join(_lines(cells[i][row])) for i in range(keep))
        console.print(Text(f"  {names}"))
        for index in range(keep, len(cells)):
            value = " ".join(_lines(cells[index][row]))
            console.print(Text(f"    {headers[index]}: {value}"))


def print_fitted(console: Console, table: Table, keep: int = 1) -> None:
    """Print `table` with nothing folded or cut: as it is, narrowed, or paged (see module)."""
    natural = sum(natural_width(c) for c in table.columns) + _extra(table)
    if natural <= console.width:
        console.print(table)
        return
    if fits(table, console):
        _allot(table, console.width)
        console.print(table)
        return
    caption, table.caption = table.caption, None
    for page in pages(table, console, keep):
        if fits(page, console):
            _allot(page, console.width)
            console.print(page)
        else:
            _print_listed(console, page, keep)
    if isinstance(caption, str):  # under the last page, as wide as the terminal
        console.print(Text(caption, style="dim"))
