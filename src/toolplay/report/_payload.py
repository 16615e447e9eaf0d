"""The report's scenario data, packed small: gzip-compressed, and the conversations in chunks.

A report of the full sandbox suite (2,848 trials) carried 17 MB of JSON, mostly conversations
nobody opens; the same data compresses about 50-fold, as every trajectory repeats the same
system prompt, tool names and field names. So the page carries:

- `index`: one light record per trial (id, trial, score, outcome, categories, tokens, ...),
  enough for the scenario table and its filters, gzip-compressed as one JSON list;
- `chunks`: the heavy part of each record (messages, world changes, evidence), in chunks of
  `CHUNK` consecutive records, each compressed on its own, so opening a conversation inflates
  only its chunk (and the page opens without parsing every conversation).

Both are base64 text inside the page's JSON block (nothing is fetched, so the report still
works offline and under its Content-Security-Policy); the browser inflates them with the
standard `DecompressionStream`. gzip is written with a zero timestamp, so the same run gives
the same bytes. `unpack_payload` reads it back (for tests and tools).
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Sequence
from typing import Any

__all__ = ["CHUNK", "DETAIL_KEYS", "pack_entries", "unpack_payload"]

CHUNK = 64
"""Records per compressed chunk of conversations (one chunk inflates to about 0.4 MB)."""

DETAIL_KEYS = (
    "mode",
    "tool_names",
    "messages",
    "changes",
    "details",
    "evidence",
    "user_errors",
    "judged",
)
"""The keys of a record that travel in its chunk rather than in the index."""


def _pack(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return base64.b64encode(gzip.compress(text.encode("utf-8"), mtime=0)).decode("ascii")


def _unpack(text: str) -> Any:
    return json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))


def pack_entries(entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The index and chunks of the records (see the module docstring).

    Each index record gains `chunk` (which chunk holds its details) and `at` (its place there).
    """
    index = []
    chunks: list[list[dict[str, Any]]] = []
    for position, entry in enumerate(entries):
        chunk, at = divmod(position, CHUNK)
        if at == 0:
            chunks.append([])
        chunks[chunk].append({k: entry[k] for k in DETAIL_KEYS if k in entry})
        light = {k: v for k, v in entry.items() if k not in DETAIL_KEYS}
        index.append({**light, "chunk": chunk, "at": at})
    return {"index": _pack(index), "chunks": [_pack(c) for c in chunks]}


def unpack_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """A packed page payload with its `entries` restored in full (index and details merged)."""
    out = {k: v for k, v in payload.items() if k not in ("index", "chunks")}
    chunks = [_unpack(c) for c in payload.get("chunks", [])]
    out["entries"] = [
        {**{k: v for k, v in e.items() if k not in ("chunk", "at")}, **chunks[e["chunk"]][e["at"]]}
        for e in _unpack(payload["index"])
    ]
    return out
