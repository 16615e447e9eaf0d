"""What the reference's RapidAPI tools send and how they read the answers (`rapidapi.json`).

toolplay answers these tools from simulated services (`toolplay.domains.services`) and reads
the answers the way the reference does. The facts that must agree are taken from the reference
here, by running its tools with its request function replaced by a recorder (nothing leaves
the machine): each tool's URL and query parameters, the fields a place search drops, the
weather tool's renaming table and the fields it adds, the text it raises when an answer has no
result, and the currency codes it accepts. toolplay's tests check its tools against this file.

Python 3.9, standard library only besides the reference package.
"""

from __future__ import annotations

import copy
from typing import Any

LISTING_FIELDS = [
    "business_id",
    "phone_number",
    "name",
    "full_address",
    "latitude",
    "longitude",
    "review_count",
    "rating",
    "timezone",
    "website",
    "place_id",
    "place_link",
    "types",
    "price_level",
    "working_hours",
    "city",
    "country",
    "verified",
    "photos",
]
"""The fields toolplay's simulated maps search returns per place (the probe's input)."""

CALLS = {
    "search_lat_lon": {"latitude": 37.334606, "longitude": -122.009102},
    "search_location_around_lat_lon": {"location": "Apple Park"},
    "search_weather_around_lat_lon": {"days": 1},
    "search_stock": {"query": "Apple"},
    "convert_currency": {"amount": 2048, "from_currency_code": "usd", "to_currency_code": "CNY"},
}
"""One call per tool, made in the reference's default world (wifi and location on)."""


def _run(tool: Any, arguments: dict[str, Any], answer: Any) -> tuple[Any, list[Any], str]:
    """(result, recorded requests, raised text) of one call answered with `answer`."""
    from tool_sandbox.tools import rapid_api_search_tools as module

    seen: list[Any] = []

    def recorder(url: str, params: dict[str, Any], headers: dict[str, Any]) -> Any:
        seen.append({"url": url, "params": sorted(params), "headers": sorted(headers)})
        return copy.deepcopy(answer)

    real = module.rapid_api_get_request
    module.rapid_api_get_request = recorder
    try:
        return tool(**arguments), seen, ""
    except Exception as exc:  # noqa: BLE001 (the text is what is recorded)
        return None, seen, f"{type(exc).__name__}: {exc}"
    finally:
        module.rapid_api_get_request = real


def rapidapi_data(scenarios: dict[str, Any], commit: str) -> dict[str, Any]:
    """The contents of `rapidapi.json`."""
    import ccy
    from tool_sandbox.common.execution_context import set_current_context
    from tool_sandbox.tools import rapid_api_search_tools as module

    set_current_context(
        copy.deepcopy(scenarios["find_stock_symbol_with_company_name"]).starting_context
    )
    requests: dict[str, Any] = {}
    for name, arguments in CALLS.items():
        _, seen, raised = _run(getattr(module, name), arguments, {})
        if len(seen) != 1:
            raise ValueError(f"{name} made {len(seen)} requests")
        requests[name] = {**seen[0], "no_result": raised or None}
    listing = {field: field for field in LISTING_FIELDS}
    places, _, _ = _run(
        module.search_location_around_lat_lon,
        CALLS["search_location_around_lat_lon"],
        {"data": [listing]},
    )
    empty_day = {
        "forecast": {"forecastday": [{"day": {}, "astro": {}}]},
        "location": {},
        "current": {},
    }
    added, _, _ = _run(module.search_weather_around_lat_lon, {"days": 0}, empty_day)
    stock, _, _ = _run(
        module.search_stock, CALLS["search_stock"], {"data": {"stock": [{"symbol": "AAPL:NASDAQ"}]}}
    )
    return {
        "licence": f"produced by running apple/ToolSandbox at commit {commit}; Apple's, under "
        "the licence in LICENSE",
        "requests": requests,
        "place_fields_dropped": [f for f in LISTING_FIELDS if f not in places[0]],
        "weather_renamed": [[k, v] for k, v in module._weather_key_mapping.items()],
        "weather_added": added,
        "stock_symbol": stock["symbol"],
        "currency_codes": sorted(ccy.currencydb()),
    }
