"""Weather around a point: ToolSandbox's RapidAPI weather tool, on a simulated service.

Name, arguments, checks (in the reference's order) and result shape are the reference's
(`search_weather_around_lat_lon`); the answer comes from the simulated weather service
(`toolplay.domains.services`, a deterministic function of place and day), read the way the
reference reads the live one: the requested day's `day` and `astro` fields, the place, and for
today the current reading, flattened into one mapping whose fields are renamed to readable names
(`RENAMED`; the Fahrenheit, mile and inch twins dropped). Null when the service has no data
for the point or the day.
"""

from __future__ import annotations

from typing import Any

from toolplay.domains.services import WEATHER, lookup_point, request, require_online
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.world import World

RENAMED: dict[str, str | None] = {
    "temp_c": "current_temperature",
    "temp_f": None,
    "feelslike_c": "perceived_temperature",
    "feelslike_f": None,
    "vis_km": "visibility_distance",
    "vis_miles": None,
    "wind_kph": "wind_speed",
    "wind_mph": None,
    "maxtemp_c": "max_temperature",
    "maxtemp_f": None,
    "mintemp_c": "min_temperature",
    "mintemp_f": None,
    "avgtemp_c": "average_temperature",
    "avgtemp_f": None,
    "maxwind_kph": "max_wind_speed",
    "maxwind_mph": None,
    "avgvis_km": "average_visibility_distance",
    "avgvis_miles": None,
    "pressure_mb": "barometric_pressure",
    "pressure_in": None,
    "precip_mm": None,
    "precip_in": None,
    "totalprecip_mm": None,
    "totalprecip_in": None,
    "avghumidity": "average_humidity",
}
"""The service's field -> the field the tool returns (None: dropped), in the reference's order
(a test checks it against the reference's table, exported as data)."""
UNITS = {"temperature_unit": "Celsius", "distance_unit": "Kilometer"}


@tool(kind="read", reads={"settings"})
def search_weather_around_lat_lon(
    world: World, days: int = 0, latitude: float | None = None, longitude: float | None = None
) -> dict[str, Any] | None:
    """Get the weather around a point today or some days ahead; null if unknown. Needs wifi.

    Gives the place (name, region, country, lat, lon, tz_id, localtime), the day's
    max_temperature, min_temperature and average_temperature in Celsius, average_humidity,
    daily_chance_of_rain, condition, max_wind_speed in km/h, sunrise and sunset; for today
    also current_temperature, perceived_temperature, humidity, wind_speed and
    barometric_pressure. Without latitude and longitude it uses the current location (needs
    location service on).

    Args:
        days: Days from today: 0 for today, 1 for tomorrow, ...
        latitude: Latitude of the point (give longitude too).
        longitude: Longitude of the point (give latitude too).
    """
    if latitude is not None:
        _validate.latitude(latitude)
    if longitude is not None:
        _validate.longitude(longitude)
    lat, lon = lookup_point(world, latitude, longitude)
    if days < 0:
        raise InvalidArgumentError(f"days must be 0 (today) or more, got {days}.")
    require_online(world)
    response = request(WEATHER, {"q": f"{lat}, {lon}", "days": days + 1}, world.clock)
    try:
        forecast = response["forecast"]["forecastday"][days]
        flat: dict[str, Any] = {
            **forecast["day"],
            **forecast["astro"],
            **response["location"],
            **UNITS,
        }
        if days == 0:
            flat.update(response["current"])
    except (KeyError, IndexError, TypeError):
        return None
    for key, name in RENAMED.items():
        if key in flat:
            value = flat.pop(key)
            if name is not None:
                flat[name] = value
    return flat


TOOLS = [search_weather_around_lat_lon]
