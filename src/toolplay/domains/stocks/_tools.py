"""Stock search: ToolSandbox's RapidAPI stock tool, on a simulated service.

Name, argument and result shape are the reference's (`search_stock`); the answer comes from
the simulated stock search (`toolplay.domains.services`, fixed prices), read the way the
reference reads the live one: the first stock found, its symbol without the exchange suffix;
null when none matches.
"""

from __future__ import annotations

from typing import Any

from toolplay.domains.services import STOCKS, request, require_online
from toolplay.tools._decorator import tool
from toolplay.world import World


@tool(kind="read", reads={"settings"})
def search_stock(world: World, query: str) -> dict[str, Any] | None:
    """Look up a stock by company name ("Apple"), ticker symbol ("AAPL") or exchange. Needs wifi.

    Gives name, symbol, exchange, price, change and percent_change since the previous close,
    previous_close and currency (ISO 4217; GBX is pence sterling). Null when no stock matches.

    Args:
        query: Company name, ticker symbol or exchange name.
    """
    require_online(world)
    response = request(STOCKS, {"query": query}, world.clock)
    try:
        stock: dict[str, Any] = response["data"]["stock"][0]
        stock["symbol"] = stock["symbol"].split(":")[0]
    except (KeyError, IndexError, TypeError):
        return None
    return stock


TOOLS = [search_stock]
