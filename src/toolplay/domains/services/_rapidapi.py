"""The five web requests behind ToolSandbox's RapidAPI tools, answered offline.

`request(url, params, now)` takes a request as the reference's tools make it (the service's
URL and its query parameters, as values or as the text a query string carries) and returns the
JSON object the simulated service answers. An unknown URL is a harness bug (ValueError);
parameters a service cannot read get that service's "no result" answer, as a web service
answers a bad query.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from toolplay.domains.services._gazetteer import reverse_geocode, search_maps
from toolplay.domains.services._markets import convert_currency, search_stocks
from toolplay.domains.services._weather import forecast

MAPS = "https://maps-data.p.rapidapi.com/searchmaps.php"
GEOCODING = "https://trueway-geocoding.p.rapidapi.com/ReverseGeocode"
WEATHER = "https://weatherapi-com.p.rapidapi.com/forecast.json"
STOCKS = "https://real-time-finance-data.p.rapidapi.com/search"
CURRENCY = "https://currency-converter18.p.rapidapi.com/api/v1/convert"


class BadQuery(Exception):
    """A parameter the service cannot read."""


def _number(params: Mapping[str, Any], name: str) -> float:
    try:
        return float(params[name])
    except (KeyError, TypeError, ValueError):
        raise BadQuery(name) from None


def _pair(params: Mapping[str, Any], name: str) -> tuple[float, float]:
    try:
        lat, lon = (float(part) for part in str(params[name]).split(","))
    except (KeyError, ValueError):
        raise BadQuery(name) from None
    return lat, lon


def _maps(params: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    lat, lng = _number(params, "lat"), _number(params, "lng")
    limit = int(_number(params, "limit")) if "limit" in params else 20
    return {"status": "OK", "data": search_maps(str(params.get("query", "")), lat, lng, limit)}


def _geocoding(params: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    lat, lon = _pair(params, "location")
    return reverse_geocode(lat, lon)


def _weather(params: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    lat, lon = _pair(params, "q")
    return forecast(lat, lon, int(_number(params, "days")) if "days" in params else 1, now)


def _stocks(params: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    return search_stocks(str(params.get("query", "")))


def _currency(params: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    source, target = str(params.get("from", "")), str(params.get("to", ""))
    return convert_currency(source.upper(), target.upper(), _number(params, "amount"))


SERVICES: dict[str, Callable[[Mapping[str, Any], datetime], dict[str, Any]]] = {
    MAPS: _maps,
    GEOCODING: _geocoding,
    WEATHER: _weather,
    STOCKS: _stocks,
    CURRENCY: _currency,
}
"""URL -> the simulated service answering it."""

_REFUSALS: dict[str, dict[str, Any]] = {
    MAPS: {"status": "ERROR", "data": None},
    GEOCODING: {"results": []},
    WEATHER: {"error": {"code": 1003, "message": "Parameter q is missing."}},
    STOCKS: {"status": "ERROR", "data": None},
    CURRENCY: {"success": False, "validationMessage": ["Invalid request."]},
}


def request(url: str, params: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """The simulated service's answer to a GET of `url` with `params` at time `now`.

    Raises:
        ValueError: `url` is none of the five services.
    """
    service = SERVICES.get(url)
    if service is None:
        raise ValueError(f"no simulated service answers {url!r}; known: {sorted(SERVICES)}")
    try:
        return service(params, now)
    except BadQuery:
        return copy.deepcopy(_REFUSALS[url])
