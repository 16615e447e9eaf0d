"""The services' shipped data, read once: cities, places (with the generated filler), markets.

`data/places.yaml` holds cities, landmarks and businesses written out, and a `filler` section
from which a few hundred more businesses are generated around cities, each chosen by a hash of
city and kind (the same data on every machine, forever). `data/markets.yaml` holds stocks and
currency rates. Callers copy before they return anything built from these records.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any

EARTH_RADIUS_KM = 6371.0088
"""Mean Earth radius (IUGG), for haversine distances."""
FIRST_FILLER_LINE, LAST_FILLER_LINE = 31, 99
"""Filler phone lines 555-0131..0199 (the written businesses use 555-0101..0130)."""
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True, eq=False)
class Place:
    """One entry of the gazetteer: a city, a landmark or a business (compared by identity)."""

    key: str
    """A stable id (`kind:name@lat,lon`), for the services' ids and tie-breaks."""
    kind: str
    """"city", "landmark", or a business kind ("cafe", "pharmacy", ...)."""
    name: str
    types: tuple[str, ...]
    full_address: str
    latitude: float
    longitude: float
    city: dict[str, Any]
    """The city it belongs to (itself for a city): name, region, country, tz, ..."""
    details: MappingProxyType[str, Any]
    """Phone number, website, rating, hours, price level, climate, as the data gives them."""

    @property
    def point(self) -> tuple[float, float]:
        """(latitude, longitude)."""
        return self.latitude, self.longitude


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Haversine distance between two (latitude, longitude) points in degrees."""
    lat0, lon0, lat1, lon1 = map(math.radians, (*a, *b))
    h = (
        math.sin((lat1 - lat0) / 2) ** 2
        + math.cos(lat0) * math.cos(lat1) * math.sin((lon1 - lon0) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def draws(*parts: str) -> list[float]:
    """Eight uniform numbers in [0, 1) fixed by `parts` (sha256; the same everywhere)."""
    digest = hashlib.sha256("|".join(parts).encode()).digest()
    return [int.from_bytes(digest[i : i + 4], "big") / 2**32 for i in range(0, 32, 4)]


def _read(name: str) -> Any:
    import yaml  # noqa: PLC0415 (start-up time: imported on first use)

    text = resources.files("toolplay.domains.services").joinpath(f"data/{name}")
    safe_loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # C, when there: the same, faster
    return yaml.load(text.read_text(encoding="utf-8"), Loader=safe_loader)


@lru_cache(maxsize=1)
def markets() -> dict[str, Any]:
    """Stocks (a tuple of records) and currency rates (units per US dollar)."""
    data = _read("markets.yaml")
    rates = MappingProxyType({str(k): float(v) for k, v in data["rates"].items()})
    return {"stocks": tuple(data["stocks"]), "rates": rates}


@lru_cache(maxsize=1)
def gazetteer() -> tuple[Place, ...]:
    """Every place: cities, landmarks, businesses, then the generated filler."""
    data = _read("places.yaml")
    cities = [dict(c) for c in data["cities"]]
    places = [_city(c) for c in cities]
    for kind, group in (("landmark", data["landmarks"]), ("business", data["businesses"])):
        for entry in group:
            record = dict(entry)
            label = record.pop("kind", kind)
            places.append(_entry(label, record, cities))
    written = [p for p in places if p.kind not in ("city", "landmark")]
    places += _filler(data["filler"], cities, written)
    return tuple(places)


def nearest_city(point: tuple[float, float], cities: list[dict[str, Any]]) -> dict[str, Any]:
    """The city whose centre is nearest to `point`."""
    return min(cities, key=lambda c: distance_km(point, (c["latitude"], c["longitude"])))


def _city_address(city: dict[str, Any]) -> str:
    return f"{city['name']}, {city['region']}, {city['country']}"


def _city(city: dict[str, Any]) -> Place:
    details = {k: v for k, v in city.items() if k in ("climate", "elevation")}
    return Place(
        key=f"city:{city['name']}@{city['latitude']},{city['longitude']}",
        kind="city",
        name=city["name"],
        types=("City",),
        full_address=_city_address(city),
        latitude=float(city["latitude"]),
        longitude=float(city["longitude"]),
        city=city,
        details=MappingProxyType(details),
    )


def _entry(kind: str, record: dict[str, Any], cities: list[dict[str, Any]]) -> Place:
    point = (float(record.pop("latitude")), float(record.pop("longitude")))
    name = record.pop("name")
    return Place(
        key=f"{kind}:{name}@{point[0]},{point[1]}",
        kind=kind,
        name=name,
        types=tuple(record.pop("types")),
        full_address=record.pop("full_address"),
        latitude=point[0],
        longitude=point[1],
        city=nearest_city(point, cities),
        details=MappingProxyType(record),
    )


def _filler(
    spec: dict[str, Any], cities: list[dict[str, Any]], written: list[Place]
) -> list[Place]:
    """Businesses generated around cities (module docstring)."""
    by_name = {c["name"]: c for c in cities}
    out: list[Place] = []
    numbers: dict[str, int] = {}
    names = {p.name for p in written}
    for city_name in spec["cities"]:
        city = by_name[city_name]
        centre = (float(city["latitude"]), float(city["longitude"]))
        taken = {name.rsplit(" ", 1)[0] for name in names}
        for kind in spec["kinds"]:
            if any(
                p.kind == kind["kind"] and distance_km(p.point, centre) <= spec["skip_km"]
                for p in written
            ):
                continue
            pick = draws("filler", city_name, kind["kind"])
            prefix = _choose(spec["prefixes"], pick[0], taken)
            noun = kind["nouns"][int(pick[1] * len(kind["nouns"]))]
            types = list(kind["types"])
            if "cuisines" in kind:
                cuisine = kind["cuisines"][int(pick[2] * len(kind["cuisines"]))]
                types.insert(0, f"{cuisine} restaurant")
            street = spec["streets"][int(pick[3] * len(spec["streets"]))]
            number = 100 + int(pick[4] * 9800)
            bearing, radius = pick[5] * 2 * math.pi, 0.5 + pick[6] * 3.5
            lat = centre[0] + radius / 111.0 * math.cos(bearing)
            lon = centre[1] + radius / (111.0 * math.cos(math.radians(centre[0]))) * math.sin(
                bearing
            )
            record: dict[str, Any] = {
                "name": f"{prefix} {noun}",
                "types": types,
                "full_address": _address(number, street, city),
                "latitude": round(lat, 6),
                "longitude": round(lon, 6),
                "rating": round(3.6 + pick[7] * 1.3, 1),
                "hours": kind["hours"],
            }
            if "price_level" in kind:
                record["price_level"] = kind["price_level"]
            if city.get("area_code"):
                area = str(city["area_code"])
                numbers[area] = numbers.get(area, FIRST_FILLER_LINE - 1) + 1
                if numbers[area] > LAST_FILLER_LINE:
                    raise ValueError(f"filler: more than 555-0100..0199 numbers for {area}")
                record["phone_number"] = f"+1{area}5550{numbers[area]:02d}"
            out.append(_entry(kind["kind"], record, cities))
    return out


def _choose(options: list[str], draw: float, taken: set[str]) -> str:
    """The option the draw points at, or the next one not yet taken in this city."""
    start = int(draw * len(options))
    for step in range(len(options)):
        option = options[(start + step) % len(options)]
        if option not in taken:
            taken.add(option)
            return option
    return options[start]


def _address(number: int, street: str, city: dict[str, Any]) -> str:
    if city.get("state"):
        return f"{number} {street}, {city['name']}, {city['state']}"
    return f"{number} {street}, {city['name']}, {city['country']}"
