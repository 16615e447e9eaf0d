"""Math and unit tools: unit conversion, currency conversion, great-circle distance.

Currency rates come from a fixed bundled table (`data/currency_rates.yaml`); as in the
reference, where the rates are fetched online, converting currency needs wifi. Distances use
the haversine formula on a sphere of the Earth's mean radius (within 0.5 % of the geodesic
distance the reference computes with geopy).
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from toolplay.domains.mathutil._units import UNITS, Unit, from_celsius, normalise_unit, to_celsius
from toolplay.domains.settings import require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.world import World

EARTH_RADIUS_KM = 6371.0088
"""Mean Earth radius (IUGG)."""


@lru_cache(maxsize=1)
def currency_rates() -> MappingProxyType[str, float]:
    """Units of each currency per US dollar, from the bundled table (read once)."""
    import yaml  # noqa: PLC0415 (start-up time: imported on first use)

    text = resources.files("toolplay.domains.mathutil").joinpath("data/currency_rates.yaml")
    data: dict[str, Any] = yaml.safe_load(text.read_text(encoding="utf-8"))
    return MappingProxyType({code: float(rate) for code, rate in data["rates"].items()})


def _unit(name: str, argument: str) -> Unit:
    unit = UNITS.get(normalise_unit(name))
    if unit is None:
        raise InvalidArgumentError(
            f"{argument}: unknown unit {name!r}. Use an English unit name such as 'kilometer', "
            "'pound', 'gallon', 'fahrenheit', 'hour', 'acre', 'mph' or 'kilocalorie'."
        )
    return unit


@tool(kind="read")
def unit_conversion(world: World, amount: float, from_unit: str, to_unit: str) -> float:
    """Convert an amount from one unit to another of the same kind (length, mass, volume, ...).

    Units are given by common English names or abbreviations, e.g. "miles", "km", "pounds",
    "celsius", "fahrenheit", "gallons", "mph".

    Args:
        amount: The amount in from_unit.
        from_unit: Unit to convert from, e.g. "celsius".
        to_unit: Unit to convert to, e.g. "fahrenheit".
    """
    if not math.isfinite(amount):
        raise InvalidArgumentError(f"amount must be a finite number, got {amount!r}.")
    source, target = _unit(from_unit, "from_unit"), _unit(to_unit, "to_unit")
    if source.dimension != target.dimension:
        raise InvalidArgumentError(
            f"cannot convert {source.dimension} ({from_unit!r}) to {target.dimension} "
            f"({to_unit!r})."
        )
    if source.dimension == "temperature":
        return from_celsius(to_celsius(amount, source.name), target.name)
    return amount * source.factor / target.factor


@tool(kind="read", reads={"settings"})
def convert_currency(
    world: World, amount: float, from_currency_code: str, to_currency_code: str
) -> float:
    """Convert an amount of money between currencies given by ISO 4217 codes. Needs wifi on.

    Args:
        amount: The amount of money in from_currency_code.
        from_currency_code: ISO 4217 code of the amount's currency, e.g. "USD".
        to_currency_code: ISO 4217 code of the currency wanted, e.g. "EUR".
    """
    rates = currency_rates()
    source = _validate.currency_code(from_currency_code, rates, "from_currency_code")
    target = _validate.currency_code(to_currency_code, rates, "to_currency_code")
    if not math.isfinite(amount):
        raise InvalidArgumentError(f"amount must be a finite number, got {amount!r}.")
    require_setting(world, "wifi", "Wifi")
    return amount / rates[source] * rates[target]


@tool(kind="read")
def calculate_lat_lon_distance(
    world: World, latitude_0: float, longitude_0: float, latitude_1: float, longitude_1: float
) -> float:
    """Distance in kilometers between two points given by latitude and longitude.

    Args:
        latitude_0: Latitude of the first point.
        longitude_0: Longitude of the first point.
        latitude_1: Latitude of the second point.
        longitude_1: Longitude of the second point.
    """
    lat0 = math.radians(_validate.latitude(latitude_0, "latitude_0"))
    lon0 = math.radians(_validate.longitude(longitude_0, "longitude_0"))
    lat1 = math.radians(_validate.latitude(latitude_1, "latitude_1"))
    lon1 = math.radians(_validate.longitude(longitude_1, "longitude_1"))
    return haversine_km(lat0, lon0, lat1, lon1)


def haversine_km(lat0: float, lon0: float, lat1: float, lon1: float) -> float:
    """Great-circle distance in km between two points given in radians."""
    a = (
        math.sin((lat1 - lat0) / 2) ** 2
        + math.cos(lat0) * math.cos(lat1) * math.sin((lon1 - lon0) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


TOOLS = [unit_conversion, convert_currency, calculate_lat_lon_distance]
