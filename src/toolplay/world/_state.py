"""Immutable world states: what the world looked like at one moment.

A `WorldState` shares its row tuples with the live world and with other states, so taking
one costs a dictionary of references, never a deep copy.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any

Row = Mapping[str, Any]
"""A read-only table row."""

Where = Callable[[Row], bool] | Mapping[str, Any]
"""Row selector: a predicate, or column values that must all be equal."""


def matches(row: Row, where: Where) -> bool:
    """Whether `row` is selected by `where`."""
    if callable(where):
        return bool(where(row))
    return all(row.get(column) == value for column, value in where.items())


@dataclass(frozen=True)
class TableSchema:
    """A table's declared columns; `key` names the column that identifies a row, if any."""

    name: str
    columns: tuple[str, ...]
    key: str | None = None


@dataclass(frozen=True)
class WorldState:
    """The tables and session of a world at one message index (read-only)."""

    tables: Mapping[str, tuple[Row, ...]]
    session: Row
    clock: datetime

    def rows(self, table: str) -> tuple[Row, ...]:
        """All rows of `table` (KeyError for an unknown table)."""
        return self.tables[table]

    def find(self, table: str, where: Where) -> list[Row]:
        """Rows of `table` selected by `where`."""
        return [row for row in self.tables[table] if matches(row, where)]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-able form (tables as lists of dicts)."""
        return {
            "clock": self.clock.isoformat(),
            "session": dict(self.session),
            "tables": {name: [dict(r) for r in rows] for name, rows in self.tables.items()},
        }

    def digest(self) -> str:
        """Hash of the canonical JSON form: equal states have equal digests."""
        text = json.dumps(self.to_json(), sort_keys=True, default=str, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def __iter__(self) -> Iterator[str]:
        return iter(self.tables)


def freeze_row(row: Mapping[str, Any]) -> Row:
    """A read-only view of a row that tools cannot mutate behind the world's back."""
    return MappingProxyType(dict(row))
