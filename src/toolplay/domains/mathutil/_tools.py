"""Math and unit tools: unit conversion, currency conversion, geodesic distance.

Currency rates come from a fixed bundled table (`data/currency_rates.yaml`); as in the
reference, where the rates are fetched online, converting currency needs wifi. Units are
converted by `pint` as the ToolSandbox reference converts them (its unit names and its results,
retried with lower-cased names; the amount taken as a float, as the reference's pint computed
it, and pint's own refusals reported as pint words them), and distances are geopy's geodesic
kilometers, as the reference's.
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any

import yaml

from toolplay.domains.settings import require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.world import World


@lru_cache(maxsize=1)
def currency_rates() -> MappingProxyType[str, float]:
    """Units of each currency per US dollar, from the bundled table (read once)."""
    text = resources.files("toolplay.domains.mathutil").joinpath("data/currency_rates.yaml")
    data: dict[str, Any] = yaml.safe_load(text.read_text(encoding="utf-8"))
    return MappingProxyType({code: float(rate) for code, rate in data["rates"].items()})


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
    import pint  # heavy (its unit registry): loaded on the first conversion

    try:
        try:
            converted = pint.Quantity(float(amount), from_unit).to(to_unit)
        except pint.UndefinedUnitError:
            converted = pint.Quantity(float(amount), from_unit.lower()).to(to_unit.lower())
    except (pint.PintError, ValueError, TypeError, AttributeError) as exc:
        raise InvalidArgumentError.of(
            f"cannot convert {amount!r} {from_unit!r} to {to_unit!r} ({exc}).", exc
        ) from None
    return float(converted.magnitude)


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
    import geopy.distance

    lat0 = _validate.latitude(latitude_0, "latitude_0")
    lat1 = _validate.latitude(latitude_1, "latitude_1")
    lon0 = _validate.longitude(longitude_0, "longitude_0")
    lon1 = _validate.longitude(longitude_1, "longitude_1")
    return float(geopy.distance.distance((lat0, lon0), (lat1, lon1)).kilometers)


TOOLS = [unit_conversion, convert_currency, calculate_lat_lon_distance]
