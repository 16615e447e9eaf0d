"""The unit table for `unit_conversion`: each unit's dimension and its size in base units.

Base units: metre, kilogram, litre, second, square metre, metre per second, joule, byte.
Temperatures are affine and handled apart. Names are matched after lower-casing and
collapsing spaces, against every alias listed (plural and common abbreviations included).
"""

from __future__ import annotations

from typing import NamedTuple


class Unit(NamedTuple):
    """One unit: canonical name, dimension, size in the dimension's base unit."""

    name: str
    dimension: str
    factor: float


_TABLE: dict[str, dict[str, float]] = {
    "length": {
        "meter|meters|metre|metres|m": 1.0,
        "kilometer|kilometers|kilometre|kilometres|km": 1000.0,
        "centimeter|centimeters|centimetre|centimetres|cm": 0.01,
        "millimeter|millimeters|millimetre|millimetres|mm": 0.001,
        "mile|miles|mi": 1609.344,
        "yard|yards|yd": 0.9144,
        "foot|feet|ft": 0.3048,
        "inch|inches|in": 0.0254,
        "nautical mile|nautical miles|nmi": 1852.0,
    },
    "mass": {
        "kilogram|kilograms|kg|kilo|kilos": 1.0,
        "gram|grams|g": 0.001,
        "milligram|milligrams|mg": 1e-6,
        "pound|pounds|lb|lbs": 0.45359237,
        "ounce|ounces|oz": 0.028349523125,
        "stone|stones|st": 6.35029318,
        "metric ton|metric tons|tonne|tonnes|t": 1000.0,
    },
    "volume": {
        "liter|liters|litre|litres|l": 1.0,
        "milliliter|milliliters|millilitre|millilitres|ml": 0.001,
        "cubic meter|cubic meters|cubic metre|cubic metres|m3": 1000.0,
        "gallon|gallons|gal|us gallon|us gallons": 3.785411784,
        "quart|quarts|qt": 0.946352946,
        "pint|pints|pt": 0.473176473,
        "cup|cups": 0.2365882365,
        "fluid ounce|fluid ounces|fl oz|floz": 0.0295735295625,
        "tablespoon|tablespoons|tbsp": 0.01478676478125,
        "teaspoon|teaspoons|tsp": 0.00492892159375,
    },
    "time": {
        "second|seconds|sec|secs|s": 1.0,
        "minute|minutes|min|mins": 60.0,
        "hour|hours|hr|hrs|h": 3600.0,
        "day|days|d": 86400.0,
        "week|weeks|wk": 604800.0,
    },
    "area": {
        "square meter|square meters|square metre|square metres|m2|sq m": 1.0,
        "square kilometer|square kilometers|square kilometre|square kilometres|km2|sq km": 1e6,
        "square foot|square feet|sq ft|ft2": 0.09290304,
        "square mile|square miles|sq mi|mi2": 2589988.110336,
        "acre|acres|ac": 4046.8564224,
        "hectare|hectares|ha": 10000.0,
    },
    "speed": {
        "meter per second|meters per second|metre per second|metres per second|m/s": 1.0,
        "kilometer per hour|kilometers per hour|kilometre per hour|kilometres per hour"
        "|km/h|kph|kmh": 1000.0 / 3600.0,
        "mile per hour|miles per hour|mph": 1609.344 / 3600.0,
        "knot|knots|kn|kt": 1852.0 / 3600.0,
    },
    "energy": {
        "joule|joules|j": 1.0,
        "kilojoule|kilojoules|kj": 1000.0,
        "calorie|calories|cal": 4.184,
        "kilocalorie|kilocalories|kcal": 4184.0,
        "kilowatt hour|kilowatt hours|kwh": 3.6e6,
    },
    "data": {
        "byte|bytes|b": 1.0,
        "kilobyte|kilobytes|kb": 1e3,
        "megabyte|megabytes|mb": 1e6,
        "gigabyte|gigabytes|gb": 1e9,
        "terabyte|terabytes|tb": 1e12,
    },
}

TEMPERATURES = {
    "celsius": ("celsius", "c", "degree celsius", "degrees celsius", "°c", "centigrade"),
    "fahrenheit": ("fahrenheit", "f", "degree fahrenheit", "degrees fahrenheit", "°f"),
    "kelvin": ("kelvin", "k", "kelvins"),
}
"""Temperature scales by canonical name, with their aliases."""


def _index() -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    for dimension, entries in _TABLE.items():
        for names, factor in entries.items():
            aliases = names.split("|")
            for alias in aliases:
                units[alias] = Unit(aliases[0], dimension, factor)
    for canonical, spellings in TEMPERATURES.items():
        for spelling in spellings:
            units[spelling] = Unit(canonical, "temperature", 1.0)
    return units


UNITS = _index()
"""Every alias (normalised) → its unit."""


def normalise_unit(name: str) -> str:
    """The lookup key of a unit name: lower case, single spaces, no surrounding space."""
    return " ".join(name.strip().lower().split())


def to_celsius(value: float, scale: str) -> float:
    """A temperature on `scale` in degrees Celsius."""
    if scale == "fahrenheit":
        return (value - 32.0) * 5.0 / 9.0
    if scale == "kelvin":
        return value - 273.15
    return value


def from_celsius(value: float, scale: str) -> float:
    """A temperature in degrees Celsius on `scale`."""
    if scale == "fahrenheit":
        return value * 9.0 / 5.0 + 32.0
    if scale == "kelvin":
        return value + 273.15
    return value
