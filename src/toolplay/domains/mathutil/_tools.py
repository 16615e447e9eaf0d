"""Math and unit tools: unit conversion, currency conversion, great-circle distance.

Currency conversion is ToolSandbox's RapidAPI tool (`convert_currency`: its codes, checks and
result), answered by the simulated currency service (`toolplay.domains.services`, fixed rates);
as in the reference, where the rates are fetched online, it needs wifi. Distances use
the haversine formula on a sphere of the Earth's mean radius (within 0.5 % of the geodesic
distance the reference computes with geopy).
"""

from __future__ import annotations

import math

from toolplay.domains.mathutil._units import UNITS, Unit, from_celsius, normalise_unit, to_celsius
from toolplay.domains.services import CURRENCY, known_currencies, request
from toolplay.domains.settings import require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, NotFoundError
from toolplay.world import World

EARTH_RADIUS_KM = 6371.0088
"""Mean Earth radius (IUGG)."""


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
    known = known_currencies()
    for name, code in (
        ("from_currency_code", from_currency_code),
        ("to_currency_code", to_currency_code),
    ):
        if code.upper() not in known:
            raise InvalidArgumentError(
                f"{name}: {code!r} is not a known ISO 4217 currency code; known codes: "
                f"{', '.join(sorted(known))}."
            )
    if not math.isfinite(amount):
        raise InvalidArgumentError(f"amount must be a finite number, got {amount!r}.")
    require_setting(world, "wifi", "Wifi")
    params = {"from": from_currency_code.upper(), "to": to_currency_code.upper(), "amount": amount}
    response = request(CURRENCY, params, world.clock)
    try:
        return float(response["result"]["convertedAmount"])
    except (KeyError, TypeError, ValueError):
        raise NotFoundError(
            f"the currency service could not convert {from_currency_code} to {to_currency_code}."
        ) from None


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
