"""Place search and reverse geocoding over the gazetteer, answered as the web services would.

`search_maps` answers a maps search (query, point, limit): a place matches when every word of
the query (less words like "near", "the", "on") is close to a word of its name, its types, its
address or its city; results are ordered by how exactly the name matches, then by how many query
words hit the name, then by distance. Businesses are only found within `LOCAL_RADIUS_KM` of the
point; cities and landmarks anywhere. Each result is a record with the fields such a service
returns (name, full_address, coordinates, phone_number, rating, review_count, types,
working_hours, price_level, timezone, website, city, and ids and links).

`reverse_geocode` answers a point: the address of a place within `ADDRESS_RADIUS_KM`, else the
nearest city within `CITY_RADIUS_KM` as "City, Region, Country", else no result.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rapidfuzz import fuzz

from toolplay.domains.services._data import WEEKDAYS, Place, distance_km, draws, gazetteer
from toolplay.tools._match import normalise

LOCAL_RADIUS_KM = 50.0
ADDRESS_RADIUS_KM = 0.25
CITY_RADIUS_KM = 40.0
WORD_SIMILARITY = 85.0
"""How close (rapidfuzz ratio, 0-100) a query word must be to a word of a place (4+ letters)."""
STOPWORDS = frozenset(
    {
        "a", "an", "the", "near", "nearby", "me", "my", "closest", "nearest", "around", "in",
        "at", "of", "on", "by", "to", "for", "find", "best", "good", "some", "any", "and",
        "where", "is", "there", "here",
    }
)  # fmt: skip
"""Words of a query that say nothing about what is searched for."""
GLOBAL_KINDS = frozenset({"city", "landmark"})


@lru_cache(maxsize=1 << 16)
def _close(query_word: str, word: str) -> bool:
    if query_word == word:
        return True
    if min(len(query_word), len(word)) < 4:
        return False
    return fuzz.ratio(query_word, word) >= WORD_SIMILARITY


def _words(place: Place) -> tuple[frozenset[str], frozenset[str]]:
    """(words of the name, every word of name, types, address and city)."""
    name = frozenset(normalise(place.name).split())
    text = " ".join([*place.types, place.full_address, place.city["name"]])
    return name, name | frozenset(normalise(text).split())


@lru_cache(maxsize=1)
def _index() -> tuple[dict[str, frozenset[int]], dict[str, frozenset[int]]]:
    """Word -> the places (by position) holding it anywhere, and in their name."""
    anywhere: dict[str, set[int]] = {}
    named: dict[str, set[int]] = {}
    for position, place in enumerate(gazetteer()):
        name, everything = _words(place)
        for word in everything:
            anywhere.setdefault(word, set()).add(position)
        for word in name:
            named.setdefault(word, set()).add(position)
    return (
        {w: frozenset(p) for w, p in anywhere.items()},
        {w: frozenset(p) for w, p in named.items()},
    )


@lru_cache(maxsize=1 << 12)
def _holding(query_word: str) -> tuple[frozenset[int], frozenset[int]]:
    """The places with a word close to `query_word` anywhere, and in their name."""
    anywhere, named = _index()
    close = [w for w in anywhere if _close(query_word, w)]
    return (
        frozenset().union(*(anywhere[w] for w in close)),
        frozenset().union(*(named.get(w, frozenset()) for w in close)),
    )


def _query_words(query: str) -> list[str]:
    return [w for w in normalise(query).split() if w not in STOPWORDS]


def search_maps(query: str, latitude: float, longitude: float, limit: int) -> list[dict[str, Any]]:
    """The places matching `query` around the point, best first, at most `limit`."""
    return [listing(gazetteer()[i]) for i in _ranked(query, latitude, longitude, limit)]


@lru_cache(maxsize=1 << 12)
def _ranked(query: str, latitude: float, longitude: float, limit: int) -> tuple[int, ...]:
    """Positions of the best matches (memoised: a suite repeats the same searches)."""
    words = _query_words(query)
    if not words or limit <= 0:
        return ()
    places = gazetteer()
    holding = [_holding(word) for word in words]
    candidates = frozenset.intersection(*(anywhere for anywhere, _ in holding))
    wanted = " ".join(sorted(set(words)))
    centre = (latitude, longitude)
    found: list[tuple[tuple[int, int, float, int], int]] = []
    for position in candidates:
        place = places[position]
        away = distance_km(centre, place.point)
        if place.kind not in GLOBAL_KINDS and away > LOCAL_RADIUS_KM:
            continue
        hits = sum(1 for _, named in holding if position in named)
        exact = 0 if " ".join(sorted(_words(place)[0])) == wanted else 1
        found.append(((exact, -hits, away, position), position))
    found.sort(key=lambda item: item[0])
    return tuple(position for _, position in found[:limit])


def listing(place: Place) -> dict[str, Any]:
    """A place as a maps search lists it (a fresh dict)."""
    details, city = place.details, place.city
    pick = draws("listing", place.key)
    ident = f"{int(pick[0] * 2**32):08x}{int(pick[1] * 2**32):08x}"
    rating = details.get("rating")
    if rating is None and place.kind != "city":
        rating = round(4.3 + pick[2] * 0.6, 1)
    region = city.get("state") or city["region"]
    return {
        "business_id": f"0x{ident[:8]}:0x{ident[8:]}",
        "phone_number": details.get("phone_number"),
        "name": place.name,
        "full_address": place.full_address,
        "latitude": place.latitude,
        "longitude": place.longitude,
        "review_count": None if place.kind == "city" else 20 + int(pick[3] * 4000),
        "rating": rating,
        "timezone": city["tz"],
        "website": details.get("website"),
        "place_id": f"ChIJ{ident}",
        "place_link": f"https://www.google.com/maps/place/?q=place_id:ChIJ{ident}",
        "types": list(place.types),
        "price_level": details.get("price_level"),
        "working_hours": working_hours(details.get("hours")),
        "city": f"{city['name']}, {region}",
        "country": city["country_code"],
        "verified": place.kind not in GLOBAL_KINDS,
        "photos": [],
    }


def working_hours(hours: str | None) -> dict[str, list[str]] | None:
    """Opening hours "7:00-22:00" as a map of weekday -> ["7 AM–10 PM"] (every day alike)."""
    if not hours:
        return None
    start, end = hours.split("-")
    if (start, end) == ("0:00", "24:00"):
        text = "Open 24 hours"
    else:
        text = f"{_clock(start)}–{_clock(end)}"
    return {day: [text] for day in WEEKDAYS}


def _clock(time: str) -> str:
    hour, minute = (int(part) for part in time.split(":"))
    suffix = "AM" if hour % 24 < 12 else "PM"
    twelve = hour % 12 or 12
    return f"{twelve}:{minute:02d} {suffix}" if minute else f"{twelve} {suffix}"


def reverse_geocode(latitude: float, longitude: float) -> dict[str, Any]:
    """The address at a point, as a reverse-geocoding service answers (module docstring)."""
    point = (latitude, longitude)
    places = [p for p in gazetteer() if p.kind != "city"]
    cities = [p for p in gazetteer() if p.kind == "city"]
    near = min(places, key=lambda p: distance_km(point, p.point))
    if distance_km(point, near.point) <= ADDRESS_RADIUS_KM:
        return {"results": [_address(near, "poi", "exact")]}
    town = min(cities, key=lambda p: distance_km(point, p.point))
    if distance_km(point, town.point) <= CITY_RADIUS_KM:
        return {"results": [_address(town, "locality", "centroid")]}
    return {"results": []}


def _address(place: Place, kind: str, precision: str) -> dict[str, Any]:
    city = place.city
    return {
        "address": place.full_address,
        "country": city["country"],
        "region": city["region"],
        "locality": city["name"],
        "location": {"lat": place.latitude, "lng": place.longitude},
        "location_type": precision,
        "type": kind,
    }
