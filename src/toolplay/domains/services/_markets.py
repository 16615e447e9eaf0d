"""Stock search and currency conversion over fixed data, answered as the web services would.

`search_stocks`: a query matches a ticker symbol exactly (case-insensitive), a company name or
one of its everyday names forgivingly, or an exchange's name; symbol matches first, then names
(best first), then the exchange's stocks, earlier table rows winning ties. Symbols carry their
exchange (`AAPL:NASDAQ`), as such services write them.

`convert_currency`: fixed rates (units per US dollar); an unknown code gets an answer without
a result, as such a service refuses it.
"""

from __future__ import annotations

from typing import Any

from rapidfuzz import fuzz

from toolplay.domains.services._data import markets
from toolplay.tools._match import normalise

MAX_STOCKS = 5
NAME_SIMILARITY = 85.0
"""How close (rapidfuzz partial ratio, 0-100) a query must be to part of a company name."""
_NOISE = frozenset(
    {"inc", "corporation", "company", "the", "co", "plc", "se", "sa", "ag", "ltd", "group",
     "holdings", "holding", "stock", "shares", "class", "n", "v", "nv"}
)  # fmt: skip
"""Words of company names and queries that do not tell companies apart."""


def _core(text: str) -> str:
    return " ".join(w for w in normalise(text).split() if w not in _NOISE)


def search_stocks(query: str) -> dict[str, Any]:
    """A stock search response (module docstring)."""
    wanted = query.strip().upper()
    core = _core(query)
    ranked: list[tuple[tuple[int, float, int], dict[str, Any]]] = []
    for order, quote in enumerate(markets()["stocks"]):
        if str(quote["symbol"]).upper() == wanted:
            ranked.append(((0, 0.0, order), quote))
            continue
        names = [quote["name"], *quote.get("aliases", [])]
        score = max(fuzz.partial_ratio(core, _core(n)) for n in names) if core else 0.0
        if len(core) >= 2 and score >= NAME_SIMILARITY:
            ranked.append(((1, -score, order), quote))
        elif str(quote["exchange"]).upper() == wanted:
            ranked.append(((2, 0.0, order), quote))
    ranked.sort(key=lambda item: item[0])
    stocks = [_listing(quote) for _, quote in ranked[:MAX_STOCKS]]
    return {
        "status": "OK",
        "data": {
            "stock": stocks,
            "ETF": [],
            "index": [],
            "mutual_fund": [],
            "currency": [],
            "futures": [],
        },
    }


def _listing(quote: dict[str, Any]) -> dict[str, Any]:
    price, change = float(quote["price"]), float(quote["change"])
    return {
        "symbol": f"{quote['symbol']}:{quote['exchange']}",
        "type": "stock",
        "name": quote["name"],
        "exchange": quote["exchange"],
        "price": price,
        "change": change,
        "percent_change": float(quote["percent_change"]),
        "previous_close": round(price - change, 2),
        "currency": quote["currency"],
    }


def known_currencies() -> frozenset[str]:
    """Every currency code the rate table holds (upper case)."""
    return frozenset(markets()["rates"])


def convert_currency(source: str, target: str, amount: float) -> dict[str, Any]:
    """A conversion response: the converted amount, or no result for an unknown code."""
    rates = markets()["rates"]
    unknown = [code for code in (source, target) if code not in rates]
    if unknown:
        return {"success": False, "validationMessage": [f"Unsupported currency: {unknown[0]}"]}
    return {
        "success": True,
        "validationMessage": [],
        "result": {
            "from": source,
            "to": target,
            "amountToConvert": amount,
            "convertedAmount": amount / rates[source] * rates[target],
        },
    }
