"""The durable run store: one SQLite file per run directory.

Writes are transactional and keyed by `(scenario_id, trial)`, so a result is either fully
stored or absent, and storing it again replaces it: a crash loses nothing that was committed
and resuming never duplicates. WAL journaling with `synchronous=FULL` keeps the file
consistent across a torn write. The store never prints and never prompts.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    scenario_id TEXT NOT NULL,
    trial INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'error')),
    trajectory TEXT NOT NULL,
    score TEXT,
    error TEXT,
    PRIMARY KEY (scenario_id, trial)
);
CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, response TEXT NOT NULL);
"""


class StoreError(Exception):
    """The run store is missing, unreadable or from an incompatible version."""


class StoredResult(BaseModel):
    """One stored row: the trajectory and score as JSON data."""

    scenario_id: str
    trial: int
    status: str
    trajectory: dict[str, Any]
    score: dict[str, Any] | None
    error: str | None


class RunStore:
    """Access to one run's SQLite file."""

    FILENAME = "run.sqlite"

    def __init__(self, path: Path, *, create: bool = False) -> None:
        self.path = path
        if not create and not path.exists():
            raise StoreError(f"{path}: no run store here (is this a run directory?)")
        try:
            # Used by one thread at a time, though not always the one that opened it (the
            # runner commits from a writer thread to keep its event loop free).
            self._db = sqlite3.connect(
                path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            version = self.get_meta("schema_version")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a readable run store ({exc})") from exc
        if version is None:
            self.set_meta("schema_version", SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            raise StoreError(
                f"{path}: store schema {version}, this toolplay reads {SCHEMA_VERSION}"
            )

    @classmethod
    def in_dir(cls, directory: Path, *, create: bool = False) -> RunStore:
        """The store of run directory `directory`."""
        return cls(directory / cls.FILENAME, create=create)

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ---- meta ----------------------------------------------------------------------
    def set_meta(self, key: str, value: Any) -> None:
        """Store a JSON value under `key`."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    def get_meta(self, key: str) -> Any:
        """The JSON value under `key`, or None."""
        with closing(self._db.execute("SELECT value FROM meta WHERE key = ?", (key,))) as cur:
            row = cur.fetchone()
        return None if row is None else json.loads(row[0])

    # ---- results -------------------------------------------------------------------
    def save_result(
        self,
        scenario_id: str,
        trial: int,
        *,
        status: str,
        trajectory: dict[str, Any],
        score: dict[str, Any] | None,
        error: str | None = None,
    ) -> None:
        """Store (or replace) the result of one scenario trial, atomically."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)",
                (
                    scenario_id,
                    trial,
                    status,
                    json.dumps(trajectory),
                    None if score is None else json.dumps(score),
                    error,
                ),
            )

    def update_score(self, scenario_id: str, trial: int, score: dict[str, Any]) -> None:
        """Replace the stored score of one result (re-scoring)."""
        with self._transaction() as db:
            db.execute(
                "UPDATE results SET score = ? WHERE scenario_id = ? AND trial = ?",
                (json.dumps(score), scenario_id, trial),
            )

    def done(self) -> set[tuple[str, int]]:
        """Keys of results that need no retry (errors are retried on resume)."""
        with closing(
            self._db.execute("SELECT scenario_id, trial FROM results WHERE status = 'done'")
        ) as cur:
            return {(row[0], row[1]) for row in cur}

    def results(self) -> list[StoredResult]:
        """Every stored result, ordered by scenario id and trial."""
        with closing(
            self._db.execute(
                "SELECT scenario_id, trial, status, trajectory, score, error FROM results "
                "ORDER BY scenario_id, trial"
            )
        ) as cur:
            return [
                StoredResult(
                    scenario_id=r[0],
                    trial=r[1],
                    status=r[2],
                    trajectory=json.loads(r[3]),
                    score=None if r[4] is None else json.loads(r[4]),
                    error=r[5],
                )
                for r in cur
            ]

    # ---- response cache ------------------------------------------------------------
    def cache_get(self, key: str) -> str | None:
        """A cached response for request `key`, or None."""
        with closing(self._db.execute("SELECT response FROM cache WHERE key = ?", (key,))) as cur:
            row = cur.fetchone()
        return None if row is None else str(row[0])

    def cache_put(self, key: str, response: str) -> None:
        """Cache a response for request `key`."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO cache VALUES (?, ?)", (key, response))
