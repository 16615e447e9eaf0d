"""The on-disk response cache."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from toolplay.runs import CacheError, SqliteResponseCache


def test_entries_survive_reopening_and_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "cache.sqlite"
    cache = SqliteResponseCache(path)
    assert cache.get("k") is None
    cache.put("k", '{"a": 1}')
    cache.put("k", '{"a": 2}')
    assert cache.get("k") == '{"a": 2}' and (cache.hits, cache.misses) == (1, 1)
    cache.close()
    again = SqliteResponseCache(path)
    assert again.get("k") == '{"a": 2}' and len(again) == 1
    again.close()


def test_concurrent_threads_share_one_cache(tmp_path: Path) -> None:
    cache = SqliteResponseCache(tmp_path / "c.sqlite")

    def work(n: int) -> None:
        for i in range(50):
            cache.put(f"{n}-{i}", str(i))
            assert cache.get(f"{n}-{i}") == str(i)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 200
    cache.close()


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("this is not sqlite " * 100)
    with pytest.raises(CacheError, match="notes.txt"):
        SqliteResponseCache(bad)
