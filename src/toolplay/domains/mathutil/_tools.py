"""Math and unit tools: unit conversion, currency conversion, geodesic distance.

Currency conversion is ToolSandbox's RapidAPI tool (`convert_currency`: its codes, checks and
result), answered by the simulated currency service (`toolplay.domains.services`, fixed rates);
as in the reference, where the rates are fetched online, it needs wifi. Units are converted by
`pint` as the ToolSandbox reference converts them (its unit names and its results, retried with
lower-cased names; the amount taken as a float, as the reference's pint computed it, and pint's
own refusals reported as pint words them), and distances are geopy's geodesic kilometers, as
the reference's.
"""

from __future__ import annotations

import math

from toolplay.domains.services import CURRENCY, known_currencies, request
from toolplay.domains.settings import require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, NotFoundError
from toolplay.world import World


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
    known = known_currencies()
    for name, code in (
        ("from_currency_code", from_currency_code),
        ("to_currency_code", to_currency_code),
    ):
        if code.upper() not in known:
            raise InvalidArgumentError(
                f"{name}: {code!r} is not a known ISO 4217 currency code; known codes: "
                f"{', '.join(sorted(known))}.",
                code="currency_unknown",
                fields={"code": code},
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
    import geopy.distance

    lat0 = _validate.latitude(latitude_0, "latitude_0")
    lat1 = _validate.latitude(latitude_1, "latitude_1")
    lon0 = _validate.longitude(longitude_0, "longitude_0")
    lon1 = _validate.longitude(longitude_1, "longitude_1")
    return float(geopy.distance.distance((lat0, lon0), (lat1, lon1)).kilometers)


TOOLS = [unit_conversion, convert_currency, calculate_lat_lon_distance]
