"""Simulated online services: the web APIs behind ToolSandbox's RapidAPI tools, offline.

The reference's five "online" tools ask web services through RapidAPI (a maps search, reverse
geocoding, a weather forecast, a stock search, a currency converter): without a paid key they
cannot run, and the live answers have changed since 2024. toolplay answers the same requests
from shipped data, never the network:

- a gazetteer (`data/places.yaml`): cities, landmarks and businesses with names, types,
  addresses, phone numbers, ratings, opening hours and coordinates; every place the ToolSandbox
  scenarios name sits where their milestones expect it, and a few hundred more are generated
  around cities so a search elsewhere finds something (`_gazetteer`, `_data`);
- weather as a deterministic function of place and day, from monthly climate normals (`_weather`);
- stocks with fixed prices and currencies with fixed rates (`data/markets.yaml`, `_markets`).

`request(url, params, now)` answers one request as the service would (`_rapidapi`). The tools
(`places`, `weather`, `stocks`, `mathutil.convert_currency`) build the reference's requests and
read the answers the way the reference's tools do, so the reference's own tools, given the same
answers (its request function replaced), return the same values. The values are simulated:
the reference's live values differ and were never published.
"""

from toolplay.domains.services._data import distance_km
from toolplay.domains.services._device import lookup_point, require_online
from toolplay.domains.services._markets import known_currencies
from toolplay.domains.services._rapidapi import (
    CURRENCY,
    GEOCODING,
    MAPS,
    STOCKS,
    WEATHER,
    request,
)

__all__ = [
    "CURRENCY",
    "GEOCODING",
    "MAPS",
    "STOCKS",
    "WEATHER",
    "distance_km",
    "known_currencies",
    "lookup_point",
    "request",
    "require_online",
]
