"""Argument checks several domains share: phone numbers, timestamps, coordinates, currencies.

Each check returns the canonical value or raises `InvalidArgumentError` whose message names
the argument, the bad value and what is allowed, because the assistant reads it and should be
able to correct its call from the message alone. The checks are the ToolSandbox reference's
(phone numbers parsed by `phonenumbers` without a default region, timestamps from 1980 to 2050,
latitude and longitude ranges), and each error names its condition (`code`, `fields`; see
`toolplay.tools.ToolError`) so the reference presentation can show the reference's text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection

import phonenumbers

from toolplay.tools._errors import InvalidArgumentError

MIN_TIMESTAMP = 315529200.0
"""1979-12-31T23:00:00Z (the reference's "1980-01-01"): earlier timestamps are refused."""
MAX_TIMESTAMP = 2524604400.0
"""2049-12-31T23:00:00Z (the reference's "2050-01-01"): later ones are almost always a unit
mistake (milliseconds)."""


def phone_number(value: str, name: str = "phone_number") -> str:
    """A phone number checked and returned as given (tools store what they are given).

    The number must parse as an international number (`phonenumbers` with no default region,
    as the reference checks it): a leading '+' and a country code; separators are allowed and
    kept. Writing a number in canonical form is the assistant's job, and what the
    canonicalisation category measures.

    Args:
        value: The number as given, e.g. "+1 (415) 555-0123".
        name: The argument name used in the error message.

    Raises:
        InvalidArgumentError: when the value does not parse as a phone number.
    """
    try:
        phonenumbers.parse(value)
    except phonenumbers.NumberParseException as exc:
        raise InvalidArgumentError.of(
            f"{name}: {value!r} is not a valid phone number: write it in international form "
            "with '+' and the country code, e.g. '+15551234567'.",
            exc,
        ) from None
    return value


def require_criteria(given: dict[str, object], code: str | None = None) -> None:
    """Refuse a search with no criterion at all, as the reference's searches do.

    Args:
        given: Each criterion's value (None: not given).
        code: The condition's code (`<tool>/no_criteria`).

    Raises:
        InvalidArgumentError: naming the criteria to choose from.
    """
    if all(value is None for value in given.values()):
        raise InvalidArgumentError(
            "No search criteria given. Give at least one of: " + ", ".join(given) + ".",
            code=code,
        )


def _in_range(number: float, name: str, low: float, high: float, what: str) -> float:
    """`number` if `low <= number <= high`, refused with the reference's range codes."""
    if number < low:
        code, bound = "range_minimum", low
    elif number > high:
        code, bound = "range_maximum", high
    elif math.isnan(number):
        raise InvalidArgumentError(f"{name}: {number!r} is not {what}.")
    else:
        return number
    raise InvalidArgumentError(
        f"{name}: {number!r} is not {what}.",
        code=code,
        fields={"param_repr": repr(name), "bound": str(bound)},
    )


def timestamp(value: float, name: str = "timestamp") -> float:
    """A POSIX timestamp in seconds from 1980 to 2050 (`MIN_TIMESTAMP`, `MAX_TIMESTAMP`).

    Raises:
        InvalidArgumentError: when the value is out of that range.
    """
    hint = " (it looks like milliseconds; divide by 1000)" if value > MAX_TIMESTAMP else ""
    what = f"a POSIX timestamp in seconds between 1980 and 2050{hint}"
    return float(_in_range(value, name, MIN_TIMESTAMP, MAX_TIMESTAMP, what))


def latitude(value: float, name: str = "latitude") -> float:
    """A latitude in degrees, -90 to 90.

    Raises:
        InvalidArgumentError: when out of range.
    """
    return float(_in_range(value, name, -90.0, 90.0, "a latitude (-90 to 90 degrees)"))


def longitude(value: float, name: str = "longitude") -> float:
    """A longitude in degrees, -180 to 180.

    Raises:
        InvalidArgumentError: when out of range.
    """
    return float(_in_range(value, name, -180.0, 180.0, "a longitude (-180 to 180 degrees)"))


def coordinates(
    lat: float | None, lon: float | None, names: tuple[str, str] = ("latitude", "longitude")
) -> tuple[float, float] | None:
    """Both coordinates checked, or None when both are absent.

    Raises:
        InvalidArgumentError: when only one is given or either is out of range.
    """
    if lat is None and lon is None:
        return None
    if lat is None or lon is None:
        raise InvalidArgumentError(
            f"give both {names[0]} and {names[1]}, or neither; got only "
            f"{names[0] if lat is not None else names[1]}.",
            code="one_coordinate",
        )
    return latitude(lat, names[0]), longitude(lon, names[1])


def currency_code(value: str, known: Collection[str], name: str) -> str:
    """An ISO 4217 currency code that the rate table knows, upper-cased.

    Raises:
        InvalidArgumentError: when not three letters, or not a known currency.
    """
    code = value.strip().upper()
    if not re.fullmatch(r"[A-Z]{3}", code):
        raise InvalidArgumentError(
            f"{name}: {value!r} is not an ISO 4217 currency code (three letters, e.g. 'USD')."
        )
    if code not in known:
        raise InvalidArgumentError(
            f"{name}: unknown currency {code!r}; known codes: {', '.join(sorted(known))}."
        )
    return code


def not_blank(value: str, name: str) -> str:
    """A string that is not empty or whitespace.

    Raises:
        InvalidArgumentError: when blank.
    """
    if not value.strip():
        raise InvalidArgumentError(f"{name} must not be empty.")
    return value
