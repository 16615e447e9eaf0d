"""The live world tools act on: tables, frozen clock, session, seeded id generators.

Every change goes through this API and is recorded against the message index being produced,
so the state as of any index can be read back. Versions are copy-on-write: a change rebuilds
only the tuple of the table it touches; other tables are shared by reference.

A change is made inside a transaction (`with world.transaction():`); if the block raises,
tables, session and random generators are restored and nothing is recorded. Changes made
outside a transaction commit at once.
"""

from __future__ import annotations

import bisect
import copy
import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from toolplay.messages import WorldChange
from toolplay.world._state import Row, TableSchema, Where, WorldState, freeze_row, matches


class WorldError(Exception):
    """A misuse of the world API (unknown table or column): a harness bug, not a tool error."""


class World:
    """Named tables with declared columns, a frozen clock and a session, with history."""

    def __init__(
        self,
        schemas: Mapping[str, TableSchema],
        rows: Mapping[str, list[Mapping[str, Any]]] | None = None,
        *,
        clock: datetime,
        session: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> None:
        self.schemas = dict(schemas)
        self.clock = clock
        self.seed = seed
        self.index = -1
        """The message index that changes are recorded against (set by the runtime)."""
        rows = rows or {}
        unknown = set(rows) - set(self.schemas)
        if unknown:
            raise WorldError(f"rows given for undeclared tables: {sorted(unknown)}")
        self._tables: dict[str, tuple[Row, ...]] = {
            name: tuple(self._checked(name, r, fill=True) for r in rows.get(name, []))
            for name in self.schemas
        }
        self._session: Row = freeze_row(session or {})
        self._rngs: dict[str, random.Random] = {}
        self._versions: dict[str, tuple[list[int], list[tuple[Row, ...]]]] = {
            name: ([-1], [table]) for name, table in self._tables.items()
        }
        self._session_versions: tuple[list[int], list[Row]] = ([-1], [self._session])
        self.changes: list[WorldChange] = []
        self._pending: list[WorldChange] | None = None

    # ---- reading ---------------------------------------------------------------------
    @property
    def session(self) -> Row:
        """The current session (logged-in user, device facts)."""
        return self._session

    def rows(self, table: str) -> tuple[Row, ...]:
        """All current rows of `table`."""
        return self._tables[self._known(table)]

    def find(self, table: str, where: Where) -> list[Row]:
        """Current rows of `table` selected by `where`."""
        return [row for row in self.rows(table) if matches(row, where)]

    def find_one(self, table: str, where: Where) -> Row | None:
        """The first current row selected by `where`, or None."""
        return next((row for row in self.rows(table) if matches(row, where)), None)

    def state(self) -> WorldState:
        """The current state (cheap: shares row tuples)."""
        return WorldState(dict(self._tables), self._session, self.clock)

    def state_at(self, index: int) -> WorldState:
        """The state after every change recorded at message indices <= `index`."""
        tables = {name: _at(versions, index) for name, versions in self._versions.items()}
        return WorldState(tables, _at(self._session_versions, index), self.clock)

    # ---- changing --------------------------------------------------------------------
    def insert(self, table: str, row: Mapping[str, Any]) -> Row:
        """Append a row; missing declared columns are filled with None."""
        new = self._checked(table, row, fill=True)
        self._commit(table, self._tables[table] + (new,), "insert", None, new)
        return new

    def update(
        self, table: str, where: Where, values: Mapping[str, Any], *, to_end: bool = False
    ) -> int:
        """Set `values` on every selected row; returns how many rows changed.

        With `to_end`, each changed row moves to the end of the table (as a store that
        replaces a row by removing it and adding the new one, e.g. the ToolSandbox
        reference's, lists it last).
        """
        self._checked(table, values, fill=False)
        rows = list(self._tables[table])
        changed = 0
        for old in [row for row in rows if matches(row, where)]:
            new = freeze_row({**old, **values})
            i = next(k for k, row in enumerate(rows) if row is old)
            if to_end:
                rows.pop(i)
                rows.append(new)
            else:
                rows[i] = new
            changed += 1
            self._commit(table, tuple(rows), "update", old, new)
        return changed

    def delete(self, table: str, where: Where) -> int:
        """Remove every selected row; returns how many were removed."""
        self._known(table)
        removed = 0
        for row in [r for r in self._tables[table] if matches(r, where)]:
            remaining = tuple(r for r in self._tables[table] if r is not row)
            self._commit(table, remaining, "delete", row, None)
            removed += 1
        return removed

    def set_session(self, **values: Any) -> None:
        """Change session fields (login, logout, device facts)."""
        before = self._session
        self._session = freeze_row({**before, **values})
        self._record(
            WorldChange(
                index=self.index,
                table="session",
                op="session",
                before=dict(before),
                after=dict(self._session),
            )
        )

    def rng(self, name: str) -> random.Random:
        """A random generator for `name`, seeded from the world seed; rolled back with calls."""
        if name not in self._rngs:
            self._rngs[name] = random.Random(f"{self.seed}:{name}")
        return self._rngs[name]

    def set_rng(self, name: str, generator: random.Random) -> None:
        """Install a specific generator (e.g. a dataset's own seeding scheme)."""
        self._rngs[name] = generator

    def fork(self) -> World:
        """An independent world in this one's current state (tables, session, clock, the id
        generators' states) without its history: for trying calls out without touching this
        world (e.g. finding the order parallel calls would fail in). Changes to either world
        never reach the other.
        """
        twin = World(self.schemas, clock=self.clock, session=self._session, seed=self.seed)
        twin._tables = dict(self._tables)
        twin._versions = {name: ([-1], [rows]) for name, rows in self._tables.items()}
        twin._rngs = {name: copy.copy(generator) for name, generator in self._rngs.items()}
        twin.index = self.index
        return twin

    def fingerprint(self) -> str:
        """The current state and the id generators' states as one string: two worlds with the
        same fingerprint answer every later call the same way.
        """
        rngs = sorted((name, hash(r.getstate())) for name, r in self._rngs.items())
        return f"{self.state().digest()}|{rngs}"

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All-or-nothing block: on an exception the world is exactly as before."""
        if self._pending is not None:
            yield
            return
        saved_tables = dict(self._tables)
        saved_session = self._session
        saved_rngs = {name: r.getstate() for name, r in self._rngs.items()}
        self._pending = []
        try:
            yield
        except BaseException:
            self._tables = saved_tables
            self._session = saved_session
            for name in list(self._rngs):
                if name in saved_rngs:
                    self._rngs[name].setstate(saved_rngs[name])
                else:
                    del self._rngs[name]
            self._pending = None
            raise
        pending, self._pending = self._pending, None
        for change in pending:
            self._publish(change)

    # ---- internals -------------------------------------------------------------------
    def _known(self, table: str) -> str:
        if table not in self.schemas:
            raise WorldError(f"unknown table {table!r}; declared: {sorted(self.schemas)}")
        return table

    def _checked(self, table: str, row: Mapping[str, Any], *, fill: bool) -> Row:
        schema = self.schemas[self._known(table)]
        extra = set(row) - set(schema.columns)
        if extra:
            raise WorldError(f"table {table!r} has no column(s) {sorted(extra)}")
        if not fill:
            return freeze_row(row)
        return freeze_row({column: row.get(column) for column in schema.columns})

    def _commit(
        self, table: str, rows: tuple[Row, ...], op: Any, before: Row | None, after: Row | None
    ) -> None:
        self._tables[table] = rows
        self._record(
            WorldChange(
                index=self.index,
                table=table,
                op=op,
                before=dict(before) if before is not None else None,
                after=dict(after) if after is not None else None,
            )
        )

    def _record(self, change: WorldChange) -> None:
        if self._pending is not None:
            self._pending.append(change)
        else:
            self._publish(change)

    def _publish(self, change: WorldChange) -> None:
        self.changes.append(change)
        if change.table == "session":
            _push(self._session_versions, change.index, self._session)
        else:
            _push(self._versions[change.table], change.index, self._tables[change.table])


def _push(versions: tuple[list[int], list[Any]], index: int, value: Any) -> None:
    indices, values = versions
    if indices[-1] == index:
        values[-1] = value
    elif index > indices[-1]:
        indices.append(index)
        values.append(value)
    else:
        raise WorldError(f"change at message {index} after message {indices[-1]}")


def _at(versions: tuple[list[int], list[Any]], index: int) -> Any:
    indices, values = versions
    return values[max(bisect.bisect_right(indices, index) - 1, 0)]
