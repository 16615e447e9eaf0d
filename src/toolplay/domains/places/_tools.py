"""Place search served from a bundled map (`data/places.yaml`); an "online" lookup.

Like the reference's web-backed search, it needs wifi, and searches around the device's
location (needing location service) unless coordinates are given. A query matches a place by
name (in part), or when every word of the query is close to a word of its name, category,
cuisine or tags; a city by name; results are the nearest matches first, at most
`MAX_RESULTS`. Shops and restaurants are only found within `LOCAL_RADIUS_KM` of the point;
cities and landmarks anywhere.
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources
from typing import Any

from toolplay.domains.settings import point_or_current, require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._match import partial_ratio, tokens_match
from toolplay.world import World

MAX_RESULTS = 4
LOCAL_RADIUS_KM = 50.0
QUERY_STOPWORDS = frozenset(
    {"a", "an", "the", "near", "nearby", "me", "closest", "nearest", "around", "in", "at", "of"}
)
"""Words of a query that say nothing about what is searched for."""
ADDRESS_RADIUS_KM = 0.25
"""`search_lat_lon` names a place's address when the point is this close to it."""
CITY_RADIUS_KM = 40.0
"""... and otherwise the nearest city's name when it is this close."""
EARTH_RADIUS_KM = 6371.0088
_GLOBAL_CATEGORIES = {"landmark", "airport", "university", "stadium", "city"}


@lru_cache(maxsize=1)
def map_data() -> dict[str, tuple[dict[str, Any], ...]]:
    """The bundled cities and places (read once; callers copy before returning rows)."""
    import yaml  # noqa: PLC0415 (start-up time: imported on first use)

    text = resources.files("toolplay.domains.places").joinpath("data/places.yaml")
    data = yaml.safe_load(text.read_text(encoding="utf-8"))
    return {"cities": tuple(data["cities"]), "places": tuple(data["places"])}


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Haversine distance between two (latitude, longitude) points in degrees."""
    lat0, lon0, lat1, lon1 = map(math.radians, (*a, *b))
    h = (
        math.sin((lat1 - lat0) / 2) ** 2
        + math.cos(lat0) * math.cos(lat1) * math.sin((lon1 - lon0) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def _city_entry(city: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": city["name"],
        "category": "city",
        "address": f"{city['name']}, {city['region']}, {city['country']}",
        "latitude": city["latitude"],
        "longitude": city["longitude"],
    }


def _matches(query: str, entry: dict[str, Any]) -> bool:
    fields = ("name", "category", "cuisine", "tags")
    text = " ".join(str(entry[f]) for f in fields if entry.get(f))
    return partial_ratio(query, str(entry["name"])) == 1.0 or tokens_match(
        query, text, ignore=QUERY_STOPWORDS
    )


@tool(kind="read", reads={"settings"})
def search_location_around_lat_lon(
    world: World, location: str, latitude: float | None = None, longitude: float | None = None
) -> list[dict[str, Any]]:
    """Search for places by name or kind around a point; nearest first. Needs wifi on.

    The query can be a business name ("Blue Heron Coffee"), a kind of place ("pharmacy",
    "italian restaurant"), a landmark or a city. Results give name, category, address,
    latitude and longitude, and where known phone_number, rating, price and opening hours.
    Without latitude and longitude the search is around the current location (needs
    location service on).

    Args:
        location: What to search for.
        latitude: Latitude to search around (give longitude too).
        longitude: Longitude to search around (give latitude too).
    """
    _validate.not_blank(location, "location")
    _validate.coordinates(latitude, longitude)
    require_setting(world, "wifi", "Wifi")
    center = point_or_current(world, latitude, longitude)
    data = map_data()
    candidates = [dict(p) for p in data["places"]] + [_city_entry(c) for c in data["cities"]]
    found: list[tuple[float, int, dict[str, Any]]] = []
    for order, entry in enumerate(candidates):
        if not _matches(location, entry):
            continue
        away = distance_km(center, (entry["latitude"], entry["longitude"]))
        if entry["category"] not in _GLOBAL_CATEGORIES and away > LOCAL_RADIUS_KM:
            continue
        found.append((away, order, entry))
    found.sort(key=lambda item: (item[0], item[1]))
    return [{k: v for k, v in entry.items() if k != "tags"} for _, _, entry in found[:MAX_RESULTS]]


@tool(kind="read", reads={"settings"})
def search_lat_lon(world: World, latitude: float, longitude: float) -> str | None:
    """Find the address of a point given by latitude and longitude. Needs wifi on.

    Returns the address of a known place at the point, else the nearby city as
    "City, Region, Country", or null when nothing is known there.

    Args:
        latitude: Latitude of the point.
        longitude: Longitude of the point.
    """
    point = (_validate.latitude(latitude), _validate.longitude(longitude))
    require_setting(world, "wifi", "Wifi")
    data = map_data()
    places = sorted(
        (distance_km(point, (p["latitude"], p["longitude"])), i, p)
        for i, p in enumerate(data["places"])
    )
    if places and places[0][0] <= ADDRESS_RADIUS_KM:
        return str(places[0][2]["address"])
    cities = sorted(
        (distance_km(point, (c["latitude"], c["longitude"])), i, c)
        for i, c in enumerate(data["cities"])
    )
    if cities and cities[0][0] <= CITY_RADIUS_KM:
        return str(_city_entry(cities[0][2])["address"])
    return None


TOOLS = [search_location_around_lat_lon, search_lat_lon]
