"""Weather around a point, derived from bundled monthly climate normals; an "online" lookup.

A day's weather at a station is the month's normal moved by a deterministic offset drawn from
a hash of (station, date), so every scenario sees the same plausible, fixed weather on the
same day. Needs wifi; without coordinates it uses the device location (needs location
service). Points farther than `COVERAGE_KM` from every station have no data (null).
"""

from __future__ import annotations

import hashlib
import math
from datetime import date, datetime, timedelta
from functools import lru_cache
from importlib import resources
from typing import Any

from toolplay.domains.settings import point_or_current, require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.world import World

COVERAGE_KM = 60.0
MAX_DAYS = 6
"""Forecasts reach this many days past today."""
EARTH_RADIUS_KM = 6371.0088


@lru_cache(maxsize=1)
def stations() -> tuple[dict[str, Any], ...]:
    """The bundled weather stations with their monthly normals (read once)."""
    import yaml  # noqa: PLC0415 (start-up time: imported on first use)

    text = resources.files("toolplay.domains.weather").joinpath("data/climate.yaml")
    return tuple(yaml.safe_load(text.read_text(encoding="utf-8"))["stations"])


def _distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    lat0, lon0, lat1, lon1 = map(math.radians, (*a, *b))
    h = (
        math.sin((lat1 - lat0) / 2) ** 2
        + math.cos(lat0) * math.cos(lat1) * math.sin((lon1 - lon0) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def _draws(station: str, day: date) -> list[float]:
    """Four uniform numbers in [0, 1) fixed by station and date."""
    digest = hashlib.sha256(f"{station}|{day.isoformat()}".encode()).digest()
    return [int.from_bytes(digest[i : i + 4], "big") / 2**32 for i in range(0, 16, 4)]


def daily_weather(station: dict[str, Any], day: date) -> dict[str, Any]:
    """The weather of one day at a station (no current reading)."""
    month = day.month - 1
    shift, spread, rain_draw, sky_draw = _draws(station["name"], day)
    offset = round((shift - 0.5) * 6)
    high = station["high"][month] + offset + round((spread - 0.5) * 2)
    low = min(station["low"][month] + offset, high - 2)
    raining = rain_draw * 100 < station["rain"][month]
    if raining:
        condition = "heavy rain" if rain_draw * 100 < station["rain"][month] / 4 else "rain"
    else:
        condition = ("sunny", "partly cloudy", "cloudy")[min(int(sky_draw * 3), 2)]
    humidity = min(100, station["humidity"][month] + (12 if raining else 0))
    return {
        "location": station["name"],
        "region": station["region"],
        "country": station["country"],
        "date": day.isoformat(),
        "condition": condition,
        "max_temperature": float(high),
        "min_temperature": float(low),
        "average_temperature": round((high + low) / 2, 1),
        "average_humidity": humidity,
        "chance_of_rain": min(100, round(station["rain"][month] * (2.2 if raining else 0.5))),
        "max_wind_speed": float(station["wind"] + round(spread * 10)),
        "temperature_unit": "Celsius",
        "wind_speed_unit": "km/h",
    }


def current_temperature(low: float, high: float, moment: datetime) -> float:
    """Temperature at a time of day: lowest at 05:00, highest at 15:00, cosine in between."""
    hours = moment.hour + moment.minute / 60
    if 5 <= hours <= 15:
        weight = (1 - math.cos(math.pi * (hours - 5) / 10)) / 2
    else:
        weight = (1 + math.cos(math.pi * ((hours - 15) % 24) / 14)) / 2
    return round(low + (high - low) * weight, 1)


@tool(kind="read", reads={"settings"})
def search_weather_around_lat_lon(
    world: World, days: int = 0, latitude: float | None = None, longitude: float | None = None
) -> dict[str, Any] | None:
    """Get the weather around a point today or up to 6 days ahead. Needs wifi on.

    Gives location, date, condition (e.g. "sunny", "rain"), max, min and average temperature
    in Celsius, average humidity in %, chance of rain in %, max wind speed in km/h, and for
    today also current_temperature. Without latitude and longitude it uses the current
    location (needs location service on). Null when there is no weather data for the point.

    Args:
        days: Days from today: 0 for today, 1 for tomorrow, up to 6.
        latitude: Latitude of the point (give longitude too).
        longitude: Longitude of the point (give latitude too).
    """
    if not 0 <= days <= MAX_DAYS:
        raise InvalidArgumentError(f"days must be between 0 and {MAX_DAYS}, got {days}.")
    _validate.coordinates(latitude, longitude)
    require_setting(world, "wifi", "Wifi")
    point = point_or_current(world, latitude, longitude)
    nearest = min(stations(), key=lambda s: _distance_km(point, (s["latitude"], s["longitude"])))
    if _distance_km(point, (nearest["latitude"], nearest["longitude"])) > COVERAGE_KM:
        return None
    today = world.clock
    report = daily_weather(nearest, today.date() + timedelta(days=days))
    if days == 0:
        report["current_temperature"] = current_temperature(
            report["min_temperature"], report["max_temperature"], today
        )
    return report


TOOLS = [search_weather_around_lat_lon]
