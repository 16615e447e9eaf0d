"""Weather forecasts as a deterministic function of place and day, answered as a weather API.

A point resolves to the nearest city of the gazetteer within `COVERAGE_KM` (farther: no data).
Its climate is the city's monthly normals where the data gives them, else a simple model of
latitude and elevation (`derived_climate`). A day's weather moves the month's normals by
offsets drawn from a hash of (city, date), so every run sees the same weather on the same day;
the current reading follows the day's low and high through the local time of day. The
response has the fields such a service returns: `location`, `current` (now, in the city's
time zone) and `forecast.forecastday` (today and up to `MAX_DAYS - 1` days ahead, each with
`day` and `astro`).
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from toolplay.domains.services._data import Place, distance_km, draws, gazetteer
from toolplay.domains.services._sky import clock_text, declination, moon, sun_times

COVERAGE_KM = 200.0
MAX_DAYS = 14
"""Days a forecast covers, today included."""
KM_PER_MILE = 1.609344
COMPASS = (
    "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
    "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
)  # fmt: skip
CONDITIONS = {
    "sunny": ("Sunny", 1000),
    "clear": ("Clear", 1000),
    "partly cloudy": ("Partly cloudy", 1003),
    "cloudy": ("Cloudy", 1006),
    "rain": ("Moderate rain", 1189),
    "heavy rain": ("Heavy rain", 1195),
    "snow": ("Light snow", 1213),
    "heavy snow": ("Heavy snow", 1225),
}
CLOUD = {"sunny": 5, "clear": 5, "partly cloudy": 40, "cloudy": 85}


def locate(latitude: float, longitude: float) -> Place | None:
    """The city a point's weather is reported for, or None when no city is near enough."""
    point = (latitude, longitude)
    cities = [p for p in gazetteer() if p.kind == "city"]
    city = min(cities, key=lambda c: distance_km(point, c.point))
    return city if distance_km(point, city.point) <= COVERAGE_KM else None


def derived_climate(latitude: float, elevation: float = 0.0) -> dict[str, Any]:
    """Monthly normals from latitude and elevation alone (for cities the data gives none).

    Mean temperature 27 °C up to 15° of latitude, 0.45 °C less per degree beyond, 6.5 °C less
    per km of height; a seasonal swing of 0.3 °C per degree of latitude (3 °C in the tropics),
    warmest in mid-July (mid-January south of the equator); days 10 °C warmer than nights.
    """
    a = abs(latitude)
    mean = (27.0 if a < 15 else 27.0 - 0.45 * (a - 15)) - 6.5 * elevation / 1000
    swing = 3.0 if a < 15 else 0.3 * a
    warmest = 200 if latitude >= 0 else 17
    months = [
        mean + swing / 2 * math.cos(2 * math.pi * (15 + 30.4 * m - warmest) / 365)
        for m in range(12)
    ]
    return {
        "high": [round(t + 5) for t in months],
        "low": [round(t - 5) for t in months],
        "humidity": [70 if a < 23 else 65] * 12,
        "rain": [30 if a < 23 else 25] * 12,
        "wind": 12,
    }


def climate(city: Place) -> dict[str, Any]:
    """The city's monthly normals (its own, or derived)."""
    own = city.details.get("climate")
    if own is not None:
        return dict(own)
    return derived_climate(city.latitude, float(city.details.get("elevation", 0.0)))


def daily(city: Place, day: date) -> dict[str, Any]:
    """The weather of one day at a city: a condition key and the day's numbers."""
    normals = climate(city)
    month = day.month - 1
    shift, spread, rain_draw, sky_draw, extra, wind_draw, _, _ = draws(city.name, day.isoformat())
    offset = round((shift - 0.5) * 6)
    high = normals["high"][month] + offset + round((spread - 0.5) * 2)
    low = min(normals["low"][month] + offset, high - 2)
    rain = normals["rain"][month]
    wet = rain_draw * 100 < rain
    heavy = rain_draw * 100 < rain / 4
    if wet:
        condition = ("heavy " if heavy else "") + ("snow" if high <= 1 else "rain")
    else:
        condition = ("sunny", "partly cloudy", "cloudy")[min(int(sky_draw * 3), 2)]
    humidity = min(100, normals["humidity"][month] + (12 if wet else 0))
    sky = {"sunny": 1.0, "partly cloudy": 0.8, "cloudy": 0.5}.get(condition, 0.3)
    sun_height = math.cos(math.radians(city.latitude - declination(day)))
    return {
        "condition": condition,
        "high": float(high),
        "low": float(low),
        "average": round((high + low) / 2, 1),
        "humidity": humidity,
        "chance_of_rain": min(100, round(rain * (2.2 if wet else 0.5))),
        "wind": float(normals["wind"] + round(spread * 10)),
        "precip": round((1.0 + extra * (24 if heavy else 8)) if wet else 0.0, 1),
        "wet": wet,
        "snow": wet and high <= 1,
        "uv": float(max(1, round(11 * max(sun_height, 0.0) * sky))),
        "wind_draw": wind_draw,
    }


def current_temperature(low: float, high: float, moment: datetime) -> float:
    """Temperature at a time of day: lowest at 05:00, highest at 15:00, cosine in between."""
    hours = moment.hour + moment.minute / 60
    if 5 <= hours <= 15:
        weight = (1 - math.cos(math.pi * (hours - 5) / 10)) / 2
    else:
        weight = (1 + math.cos(math.pi * ((hours - 15) % 24) / 14)) / 2
    return round(low + (high - low) * weight, 1)


def forecast(latitude: float, longitude: float, days: int, now: datetime) -> dict[str, Any]:
    """A forecast response for `days` days (today first), as of `now` (module docstring)."""
    city = locate(latitude, longitude)
    if city is None:
        return {"error": {"code": 1006, "message": "No matching location found."}}
    zone = ZoneInfo(city.city["tz"])
    local = now.astimezone(zone)
    today = local.date()
    location = {
        "name": city.name,
        "region": city.city["region"],
        "country": city.city["country"],
        "lat": round(city.latitude, 2),
        "lon": round(city.longitude, 2),
        "tz_id": city.city["tz"],
        "localtime_epoch": int(now.timestamp()),
        "localtime": local.strftime("%Y-%m-%d %H:%M"),
    }
    count = max(1, min(days, MAX_DAYS))
    forecastday = [_day(city, today + timedelta(days=k), zone) for k in range(count)]
    return {
        "location": location,
        "current": _current(city, today, local, zone),
        "forecast": {"forecastday": forecastday},
    }


def _f(celsius: float) -> float:
    return round(celsius * 9 / 5 + 32, 1)


def _miles(km: float) -> float:
    return round(km / KM_PER_MILE, 1)


def _day(city: Place, day: date, zone: ZoneInfo) -> dict[str, Any]:
    w = daily(city, day)
    text, code = CONDITIONS[w["condition"]]
    visibility = 6.0 if w["wet"] else 10.0
    times = sun_times(city.latitude, city.longitude, day, zone)
    phase, lit = moon(day)
    return {
        "date": day.isoformat(),
        "date_epoch": int(datetime(day.year, day.month, day.day, tzinfo=zone).timestamp()),
        "day": {
            "maxtemp_c": w["high"],
            "maxtemp_f": _f(w["high"]),
            "mintemp_c": w["low"],
            "mintemp_f": _f(w["low"]),
            "avgtemp_c": w["average"],
            "avgtemp_f": _f(w["average"]),
            "maxwind_mph": _miles(w["wind"]),
            "maxwind_kph": w["wind"],
            "totalprecip_mm": w["precip"],
            "totalprecip_in": round(w["precip"] / 25.4, 2),
            "totalsnow_cm": round(w["precip"] / 10, 1) if w["snow"] else 0.0,
            "avgvis_km": visibility,
            "avgvis_miles": _miles(visibility),
            "avghumidity": w["humidity"],
            "daily_will_it_rain": int(w["wet"] and not w["snow"]),
            "daily_chance_of_rain": 0 if w["snow"] else w["chance_of_rain"],
            "daily_will_it_snow": int(w["snow"]),
            "daily_chance_of_snow": w["chance_of_rain"] if w["snow"] else 0,
            "condition": {"text": text, "code": code},
            "uv": w["uv"],
        },
        "astro": {
            "sunrise": clock_text(times[0]) if times else "No sunrise",
            "sunset": clock_text(times[1]) if times else "No sunset",
            "moon_phase": phase,
            "moon_illumination": lit,
        },
    }


def _current(city: Place, today: date, local: datetime, zone: ZoneInfo) -> dict[str, Any]:
    w = daily(city, today)
    times = sun_times(city.latitude, city.longitude, today, zone)
    is_day = times is not None and times[0] <= local < times[1]
    condition = "clear" if w["condition"] == "sunny" and not is_day else w["condition"]
    text, code = CONDITIONS[condition]
    temperature = current_temperature(w["low"], w["high"], local)
    wind = round(w["wind"] * (0.3 + 0.4 * w["wind_draw"]), 1)
    feels = temperature - (round(wind / 20, 1) if temperature < 10 else 0.0)
    if temperature > 27 and w["humidity"] > 60:
        feels += 2.0
    pressure = round(1013 + (w["wind_draw"] - 0.5) * 20 - (6 if w["wet"] else 0))
    updated = local.replace(minute=local.minute - local.minute % 15, second=0, microsecond=0)
    visibility = 6.0 if w["wet"] else 10.0
    precip = round(w["precip"] / 8, 1)
    return {
        "last_updated_epoch": int(updated.timestamp()),
        "last_updated": updated.strftime("%Y-%m-%d %H:%M"),
        "temp_c": temperature,
        "temp_f": _f(temperature),
        "is_day": int(is_day),
        "condition": {"text": text, "code": code},
        "wind_mph": _miles(wind),
        "wind_kph": wind,
        "wind_degree": int(w["wind_draw"] * 360),
        "wind_dir": COMPASS[int(w["wind_draw"] * 16 + 0.5) % 16],
        "pressure_mb": float(pressure),
        "pressure_in": round(pressure * 0.02953, 2),
        "precip_mm": precip,
        "precip_in": round(precip / 25.4, 2),
        "humidity": w["humidity"],
        "cloud": CLOUD.get(condition, 90),
        "feelslike_c": round(feels, 1),
        "feelslike_f": _f(feels),
        "vis_km": visibility,
        "vis_miles": _miles(visibility),
        "uv": w["uv"] if is_day else 0.0,
        "gust_mph": _miles(wind * 1.4),
        "gust_kph": round(wind * 1.4, 1),
    }
