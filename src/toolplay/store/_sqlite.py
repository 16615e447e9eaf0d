"""The durable run store: one SQLite file per run directory.

Writes are transactional and keyed by `(scenario_id, trial)`, so a result is either fully
stored or absent, and storing it again replaces it: a crash loses nothing that was committed
and resuming never duplicates. WAL journaling with `synchronous=FULL` keeps the file
consistent across a killed process or a torn write of the log (SQLite drops a log frame whose
checksum fails, with everything after it, so an unfinished commit simply did not happen).

SQLite does not checksum its pages, so damage to the database file itself could change a
stored number silently. Each result row therefore carries a SHA-256 digest of its content
(schema 2), checked on every read: reading a damaged row is refused with a `StoreError`
naming it, and `discard_damaged` (run on `--resume`) drops such rows so they are played again.
Damage SQLite itself notices ("malformed") is a `StoreError` too. A writer holds an exclusive
lock on the file (`exclusive=True`), so two processes never run or re-score one run at once.
The store never prints and never prompts.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from toolplay.errors import InputError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no cross-process lock
    fcntl = None  # type: ignore[assignment]

SCHEMA_VERSION = 2
"""1: results without digests; 2: each result row carries its digest (1 is migrated)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    scenario_id TEXT NOT NULL,
    trial INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'error')),
    trajectory TEXT NOT NULL,
    score TEXT,
    error TEXT,
    digest TEXT,
    PRIMARY KEY (scenario_id, trial)
);
"""

SUITE_IDS = "suite_ids"
"""Meta key: the ids of every scenario of the run's suite (before --limit and --augment), so a
report can tell an id the suite has from one it does not without loading the suite again."""

SCENARIO_INFO = "scenario_info"
"""Meta key: scenario id -> what a report shows about it (description, categories, split,
augmentation, domain) for every scenario the run selected, so reports never load the suite
(trajectories carry the same per trial; runs stored before they did get it from `toolplay
score`)."""

_ROW = "scenario_id, trial, status, trajectory, score, error, digest"
_Row = tuple[Any, Any, Any, Any, Any, Any, Any]


class StoreError(InputError):
    """The run store is missing, unreadable, damaged, busy or from an incompatible version."""


class StoredResult(BaseModel):
    """One stored row: the trajectory and score as JSON data."""

    scenario_id: str
    trial: int
    status: str
    trajectory: dict[str, Any]
    score: dict[str, Any] | None
    error: str | None


def row_digest(
    scenario_id: str, trial: int, status: str, trajectory: str, score: str | None, error: str | None
) -> str:
    """The SHA-256 digest a result row carries over its stored text."""
    payload = json.dumps([scenario_id, trial, status, trajectory, score, error])
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _json_path(key: str) -> str:
    """The SQL literal of the JSON path of top-level `key`, a field name (`'$.usage'`)."""
    if not key.isidentifier():
        raise ValueError(f"not a field name: {key!r}")
    return f"'$.{key}'"


def _picked(trajectory: dict[str, Any], keys: Sequence[str] | None) -> dict[str, Any]:
    """The trajectory's `keys` (those it has), or all of it (`keys` None)."""
    if keys is None:
        return trajectory
    return {k: trajectory[k] for k in keys if k in trajectory}


def _lenient_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _intact(row: _Row) -> bool:
    scenario_id, trial, status, trajectory, score, error, digest = row
    if not isinstance(scenario_id, str) or not isinstance(trial, int):
        return False
    if not isinstance(status, str) or not isinstance(trajectory, str):
        return False
    try:
        return bool(digest == row_digest(scenario_id, trial, status, trajectory, score, error))
    except (TypeError, ValueError):  # a garbled column of the wrong type
        return False


class RunStore:
    """Access to one run's SQLite file.

    Args:
        path: The store file.
        create: Create the file if it does not exist.
        exclusive: Hold an exclusive lock for as long as the store is open (writers).

    Raises:
        StoreError: Missing (without `create`), unreadable, from a newer toolplay, or locked.
    """

    FILENAME = "run.sqlite"

    def __init__(self, path: Path, *, create: bool = False, exclusive: bool = False) -> None:
        self.path = path
        self._lock_fd: int | None = None
        if not create and not path.exists():
            raise StoreError(f"{path}: no run store here (is this a run directory?)")
        try:
            # Used by one thread at a time, though not always the one that opened it (the
            # runner commits from a writer thread to keep its event loop free).
            self._db = sqlite3.connect(
                path, timeout=30, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: not a readable run store ({exc})") from exc
        # Damaged text must not stop the reading of the rest: it decodes leniently here and
        # then fails its row's digest (or, in meta, its JSON parse).
        self._db.text_factory = _lenient_text
        try:
            self._open(exclusive)
        except BaseException:
            self.close()
            raise

    def _open(self, exclusive: bool) -> None:
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            version = self.get_meta("schema_version")
        except (sqlite3.DatabaseError, StoreError, ValueError) as exc:
            raise StoreError(f"{self.path}: not a readable run store ({exc})") from exc
        if exclusive:
            self._lock()
        if version is None:
            self.set_meta("schema_version", SCHEMA_VERSION)
        elif version == 1:
            self._migrate_from_1()
        elif version != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: store schema {version}, this toolplay reads {SCHEMA_VERSION}"
            )

    def _lock(self) -> None:
        if fcntl is None:  # pragma: no cover
            return
        # flock, unlike SQLite's own POSIX locks, belongs to this descriptor alone and is
        # released by the kernel when the process dies, however it dies.
        self._lock_fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreError(
                f"{self.path}: another toolplay process is using this run; "
                "let it finish (or stop it) first"
            ) from None

    def _migrate_from_1(self) -> None:
        """Schema 1 → 2: add the digest column and seal the rows as they are."""
        with self._transaction() as db:
            db.execute("ALTER TABLE results ADD COLUMN digest TEXT")
            with closing(db.execute(f"SELECT rowid, {_ROW} FROM results")) as cur:
                rows = cur.fetchall()
            for rowid, *row in rows:
                digest = row_digest(*row[:6])
                db.execute("UPDATE results SET digest = ? WHERE rowid = ?", (digest, rowid))
            db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)",
                (json.dumps(SCHEMA_VERSION),),
            )

    @classmethod
    def in_dir(cls, directory: Path, *, create: bool = False, exclusive: bool = False) -> RunStore:
        """The store of run directory `directory`."""
        return cls(directory / cls.FILENAME, create=create, exclusive=exclusive)

    def close(self) -> None:
        """Close the connection (and release the lock)."""
        self._db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn SQLite's complaints about a damaged or busy file into a `StoreError`."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: the run store is damaged or unusable ({exc})") from exc

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._guard():
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
        with (
            self._guard(),
            closing(self._db.execute("SELECT value FROM meta WHERE key = ?", (key,))) as cur,
        ):
            row = cur.fetchone()
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except (TypeError, ValueError) as exc:
            raise StoreError(f"{self.path}: meta {key!r} is damaged ({exc})") from exc

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
        trajectory_text = json.dumps(trajectory)
        score_text = None if score is None else json.dumps(score)
        digest = row_digest(scenario_id, trial, status, trajectory_text, score_text, error)
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                (scenario_id, trial, status, trajectory_text, score_text, error, digest),
            )

    def save_results(self, results: Sequence[StoredResult]) -> None:
        """Store (or replace) several results in one transaction: all of them, or none.

        One commit (one fsync of the write-ahead log) for a batch of finished trials, where
        `save_result` per trial would pay one each.
        """
        rows = []
        for result in results:
            trajectory_text = json.dumps(result.trajectory)
            score_text = None if result.score is None else json.dumps(result.score)
            key = (result.scenario_id, result.trial, result.status)
            digest = row_digest(*key, trajectory_text, score_text, result.error)
            rows.append((*key, trajectory_text, score_text, result.error, digest))
        with self._transaction() as db:
            db.executemany("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    def update_score(self, scenario_id: str, trial: int, score: dict[str, Any]) -> None:
        """Replace the stored score of one result (re-scoring)."""
        score_text = json.dumps(score)
        with self._transaction() as db:
            with closing(
                db.execute(
                    f"SELECT {_ROW} FROM results WHERE scenario_id = ? AND trial = ?",
                    (scenario_id, trial),
                )
            ) as cur:
                row = cur.fetchone()
            if row is None:
                return
            if not _intact(row):
                raise StoreError(self._damage_message([(scenario_id, trial)]))
            digest = row_digest(scenario_id, trial, row[2], row[3], score_text, row[5])
            db.execute(
                "UPDATE results SET score = ?, digest = ? WHERE scenario_id = ? AND trial = ?",
                (score_text, digest, scenario_id, trial),
            )

    def _rows(self) -> list[tuple[int, _Row]]:
        with (
            self._guard(),
            closing(
                self._db.execute(f"SELECT rowid, {_ROW} FROM results ORDER BY scenario_id, trial")
            ) as cur,
        ):
            return [(r[0], tuple(r[1:])) for r in cur]

    def done(self) -> set[tuple[str, int]]:
        """Keys of intact results that need no retry (errors and damaged rows are retried)."""
        return {(r[0], r[1]) for _, r in self._rows() if r[2] == "done" and _intact(r)}

    def damaged(self) -> list[tuple[str, int]]:
        """Keys (as stored, perhaps garbled) of rows whose digest does not match."""
        return [(str(r[0]), r[1]) for _, r in self._rows() if not _intact(r)]

    def discard_damaged(self) -> list[tuple[str, int]]:
        """Delete the rows whose digest does not match (so a resume plays them again)."""
        bad = [(rowid, (str(r[0]), r[1])) for rowid, r in self._rows() if not _intact(r)]
        if bad:
            with self._transaction() as db:
                db.executemany("DELETE FROM results WHERE rowid = ?", [(i,) for i, _ in bad])
        return [key for _, key in bad]

    def _damage_message(self, keys: list[tuple[str, int]]) -> str:
        first = keys[0]
        return (
            f"{self.path}: {len(keys)} stored result(s) fail their checksum (first: "
            f"{first[0]!r} trial {first[1]}), so the store was damaged; "
            "`toolplay run --resume` with the run's options plays them again"
        )

    def results(self, *, keys: Sequence[str] | None = None) -> list[StoredResult]:
        """Every stored result, ordered by scenario id and trial.

        Args:
            keys: Keep only these top-level keys of each trajectory (those it has). SQLite
                picks them out of the stored text, so the rest of a long conversation is never
                decoded (a summary reads three keys of ~30 kB; decoding it all cost more than
                playing the trial). Every row's digest is checked all the same.

        Raises:
            StoreError: A row is damaged (its digest does not match) or the file is.
        """
        if keys is not None and sqlite3.sqlite_version_info >= (3, 38):  # `->` since 3.38
            try:
                return self._results_with(keys)
            except StoreError:  # a damaged row's text may not even parse: the full read names it
                pass
        rows = [r for _, r in self._rows()]
        self._check(rows)
        return [
            StoredResult(
                scenario_id=r[0],
                trial=r[1],
                status=r[2],
                trajectory=_picked(json.loads(r[3]), keys),
                score=None if r[4] is None else json.loads(r[4]),
                error=r[5],
            )
            for r in rows
        ]

    def _check(self, rows: Sequence[_Row]) -> None:
        bad = [(str(r[0]), r[1]) for r in rows if not _intact(r)]
        if bad:
            raise StoreError(self._damage_message(bad))

    def _results_with(self, keys: Sequence[str]) -> list[StoredResult]:
        """`results(keys=...)` with SQLite's JSON operator: each key's value as JSON text."""
        picks = "".join(f", trajectory -> {_json_path(k)}" for k in keys)
        query = f"SELECT {_ROW}{picks} FROM results ORDER BY scenario_id, trial"
        with self._guard(), closing(self._db.execute(query)) as cur:
            rows = cur.fetchall()
        self._check([tuple(r[:7]) for r in rows])
        return [
            StoredResult(
                scenario_id=r[0],
                trial=r[1],
                status=r[2],
                trajectory={
                    k: json.loads(v) for k, v in zip(keys, r[7:], strict=True) if v is not None
                },
                score=None if r[4] is None else json.loads(r[4]),
                error=r[5],
            )
            for r in rows
        ]
