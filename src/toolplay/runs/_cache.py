"""The response cache on disk: one SQLite file that any number of runs can share.

`--cache PATH` names the file. Keys come from `toolplay.clients.request_key` (endpoint, full
request body, trial; never the API key), values are the raw response bodies, so a re-run of the
same configuration replays every model answer without a single call. Losing the last entries in
a crash only costs a repeated call, so writes skip fsync; concurrent runs may share the file
(SQLite locking, WAL journal).
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path

from toolplay.errors import InputError

_SCHEMA = "CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, response TEXT NOT NULL)"


class CacheError(InputError):
    """The cache file cannot be opened or is not a cache."""


class SqliteResponseCache:
    """A `ResponseCache` in a SQLite file (thread-safe)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise CacheError(f"{path}: not usable as a response cache ({exc})") from exc

    def get(self, key: str) -> str | None:
        """The cached response for `key`, or None."""
        with (
            self._lock,
            closing(self._db.execute("SELECT response FROM cache WHERE key = ?", (key,))) as cursor,
        ):
            row = cursor.fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return str(row[0])

    def put(self, key: str, response: str) -> None:
        """Remember `response` for `key`."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO cache VALUES (?, ?)", (key, response))

    def __len__(self) -> int:
        with self._lock, closing(self._db.execute("SELECT COUNT(*) FROM cache")) as cursor:
            return int(cursor.fetchone()[0])

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()
