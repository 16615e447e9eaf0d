"""Stock quotes served from a bundled table (`data/stocks.yaml`); an "online" lookup (wifi).

A query is matched against ticker symbols exactly (case-insensitive) first, then against
company names (and a few former or everyday names) forgivingly; the best match is returned,
earlier table rows winning ties.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from toolplay.domains.settings import require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._match import normalise, partial_ratio
from toolplay.world import World

NAME_THRESHOLD = 0.85
"""How close a query must be to part of a company name (see `_match`)."""
_NOISE = {
    "inc",
    "corporation",
    "company",
    "the",
    "co",
    "plc",
    "se",
    "sa",
    "group",
    "stock",
    "shares",
}


@lru_cache(maxsize=1)
def quotes() -> tuple[dict[str, Any], ...]:
    """The bundled quotes (read once; callers copy before returning)."""
    import yaml  # noqa: PLC0415 (start-up time: imported on first use)

    text = resources.files("toolplay.domains.stocks").joinpath("data/stocks.yaml")
    return tuple(yaml.safe_load(text.read_text(encoding="utf-8"))["stocks"])


def _core(text: str) -> str:
    return " ".join(w for w in normalise(text).split() if w not in _NOISE)


@tool(kind="read", reads={"settings"})
def search_stock(world: World, query: str) -> dict[str, Any] | None:
    """Look up a stock quote by company name ("Apple") or ticker symbol ("AAPL"). Needs wifi on.

    Gives name, symbol, exchange, price, change and percent_change since the previous close,
    and currency (ISO 4217; GBX is pence sterling). Null when no stock matches.

    Args:
        query: Company name or ticker symbol.
    """
    _validate.not_blank(query, "query")
    require_setting(world, "wifi", "Wifi")
    wanted = query.strip().upper()
    for quote in quotes():
        if quote["symbol"].upper() == wanted:
            return _public(quote)
    core = _core(query)
    best: tuple[float, dict[str, Any]] | None = None
    for quote in quotes():
        names = [quote["name"], *quote.get("aliases", [])]
        score = max(partial_ratio(core, _core(n)) for n in names) if core else 0.0
        if score >= NAME_THRESHOLD and (best is None or score > best[0]):
            best = (score, quote)
    return _public(best[1]) if best else None


def _public(quote: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in quote.items() if k != "aliases"}


TOOLS = [search_stock]
