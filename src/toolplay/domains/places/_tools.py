"""Place search and reverse geocoding: ToolSandbox's RapidAPI tools, on simulated services.

Names, arguments, checks (in the reference's order) and result shapes are the reference's
(`search_location_around_lat_lon`, `search_lat_lon`); the answers come from the simulated maps
and geocoding services (`toolplay.domains.services`), read the way the reference reads the live
ones: a search's results without the service's ids, links, photos and verified flag, at most
`SEARCH_LIMIT`; a point's address, or null when the service has none.
"""

from __future__ import annotations

from typing import Any

from toolplay.domains.services import (
    GEOCODING,
    MAPS,
    lookup_point,
    request,
    require_online,
)
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.world import World

SEARCH_LIMIT = 4
"""Results a search asks for (the reference's `limit`)."""
DROPPED = ("business_id", "place_id", "place_link", "verified", "photos")
"""Fields of a search result the reference drops before returning it."""


@tool(kind="read", reads={"settings"})
def search_location_around_lat_lon(
    world: World, location: str, latitude: float | None = None, longitude: float | None = None
) -> list[dict[str, Any]]:
    """Search for places by name, kind or address around a point; an empty list if none. Needs wifi.

    The query can be a business name ("Whole Foods"), a kind of place ("pharmacy", "italian
    restaurant"), a landmark, a city or an address. Each result gives name, full_address,
    latitude, longitude, phone_number, rating, review_count, types, working_hours,
    price_level, timezone, website and city, where known. Without latitude and longitude the
    search is around the current location (needs location service on).

    Args:
        location: What to search for.
        latitude: Latitude to search around (give longitude too).
        longitude: Longitude to search around (give latitude too).
    """
    lat, lon = lookup_point(world, latitude, longitude)
    require_online(world)
    params = {
        "query": location,
        "lat": lat,
        "lng": lon,
        "limit": SEARCH_LIMIT,
        "country": "us",
        "lang": "en",
    }
    response = request(MAPS, params, world.clock)
    results = response.get("data")
    if not isinstance(results, list):
        return []
    for result in results:
        for key in DROPPED:
            result.pop(key, None)
    return results


@tool(kind="read", reads={"settings"})
def search_lat_lon(world: World, latitude: float, longitude: float) -> str | None:
    """Find the address of a point given by latitude and longitude; null if none. Needs wifi.

    Args:
        latitude: Latitude of the point.
        longitude: Longitude of the point.
    """
    _validate.latitude(latitude)
    _validate.longitude(longitude)
    require_online(world)
    response = request(
        GEOCODING, {"location": f"{latitude},{longitude}", "language": "en"}, world.clock
    )
    try:
        return str(response["results"][0]["address"])
    except (KeyError, IndexError, TypeError):
        return None


TOOLS = [search_location_around_lat_lon, search_lat_lon]
