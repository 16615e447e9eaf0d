"""Forgiving text matching for search tools (names, message text, holidays, places).

Assistants paraphrase: "christmas" for "Christmas Day", "Jon" for "John". Search tools match a
query against a text when, after normalising case, accents, apostrophes and punctuation, the
query occurs in the text or the best-aligned stretch of the text is close to it (a partial
ratio, like rapidfuzz's `partial_ratio`, computed with the standard library's `difflib`).
Deterministic and dependency-free. `fuzzy_rows` is the ToolSandbox reference's own criterion
(rapidfuzz), which its searches (contacts, messages, reminders) use.

The functions are pure, and a search tool compares one query with every entry of its table
(places: about 30 entries, each `SequenceMatcher` a few hundred microseconds), so results are
memoised per (query, text): a suite asks the same few queries over and over, and the cache
turns a ~7 ms place search into a lookup. Memoising a pure function changes no result.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from rapidfuzz import fuzz, process, utils

from toolplay.world import Row

_MEMO = 1 << 16
"""Entries kept per memoised function (bounded, so a long run's memory stays flat)."""


@lru_cache(maxsize=_MEMO)
def normalise(text: str) -> str:
    """Lower case; accents and apostrophes dropped; other punctuation as spaces, collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    plain = re.sub(r"['\u2019`]", "", plain.casefold())
    return " ".join(re.sub(r"[^\w]+", " ", plain).split())


@lru_cache(maxsize=_MEMO)
def partial_ratio(query: str, text: str) -> float:
    """Similarity in [0, 1] of `query` to its best-matching stretch of `text` (both normalised)."""
    q, t = normalise(query), normalise(text)
    if not q or not t:
        return 0.0
    if q in t:
        return 1.0
    short, long = (q, t) if len(q) <= len(t) else (t, q)
    best = 0.0
    starts = {0} | {m.start() for m in re.finditer(r"\b\w", long)}
    for start in sorted(starts):
        window = long[start : start + len(short)]
        best = max(best, SequenceMatcher(None, short, window, autojunk=False).ratio())
        if best == 1.0:
            break
    return best


def fuzzy_contains(query: str, text: str, threshold: float = 0.8) -> bool:
    """Whether `query` matches `text` at least `threshold` (see `partial_ratio`)."""
    return partial_ratio(query, text) >= threshold


def tokens_match(
    query: str, text: str, threshold: float = 0.8, ignore: frozenset[str] = frozenset()
) -> bool:
    """Whether every word of `query` (minus `ignore`) is close to some word of `text`.

    Word closeness is difflib's ratio, so plurals and small typos still match
    ("restaurants", "resturant" for "restaurant"). A query of only ignored words never matches.
    """
    wanted = [w for w in normalise(query).split() if w not in ignore]
    have = normalise(text).split()
    if not wanted:
        return False
    return all(any(w == h or _word_ratio(w, h) >= threshold for h in have) for w in wanted)


@lru_cache(maxsize=_MEMO)
def _word_ratio(word: str, other: str) -> float:
    return SequenceMatcher(None, word, other, autojunk=False).ratio()


FUZZY_LIMIT = 5
"""Most rows a fuzzy search criterion keeps (rapidfuzz's default `limit`, the reference's)."""


def fuzzy_rows(
    query: str, rows: Sequence[Row], column: str, threshold: float, limit: int = FUZZY_LIMIT
) -> list[Row]:
    """The ToolSandbox reference's fuzzy criterion: the rows whose `column` scores at least
    `threshold` (0-100) against `query` by rapidfuzz's `WRatio` after its default processing,
    at most `limit` of them, best first (ties in table order). Rows whose value is None never
    match.
    """
    found = process.extract(
        query,
        [row[column] for row in rows],
        scorer=fuzz.WRatio,
        processor=utils.default_process,
        score_cutoff=threshold,
        limit=limit,
    )
    return [rows[index] for _, _, index in found]
