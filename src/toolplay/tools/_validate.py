"""Argument checks several domains share: phone numbers, timestamps, coordinates, currencies.

Each check returns the canonical value or raises `InvalidArgumentError` whose message names
the argument, the bad value and what is allowed, because the assistant reads it and should be
able to correct its call from the message alone.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from datetime import UTC, datetime

from toolplay.tools._errors import InvalidArgumentError

_PHONE = re.compile(r"\+?\d{7,15}")

MIN_TIMESTAMP = 0.0
"""1970-01-01T00:00:00Z: POSIX timestamps before the epoch are refused."""
MAX_TIMESTAMP = datetime(2100, 1, 1, tzinfo=UTC).timestamp()
"""2100-01-01T00:00:00Z: later timestamps are almost always a unit mistake (milliseconds)."""


def phone_number(value: str, name: str = "phone_number") -> str:
    """A phone number checked and returned as given (tools store what they are given).

    Separators (spaces, dashes, dots, parentheses) are allowed in the check, never removed:
    writing a number in canonical form is the assistant's job, and what the canonicalisation
    category measures.

    Args:
        value: The number as given, e.g. "+1 (415) 555-0123".
        name: The argument name used in the error message.

    Raises:
        InvalidArgumentError: when the value is not 7 to 15 digits.
    """
    compact = re.sub(r"[\s\-().]", "", value)
    if not _PHONE.fullmatch(compact):
        raise InvalidArgumentError(
            f"{name}: {value!r} is not a valid phone number: use 7 to 15 digits, optionally "
            "starting with '+', e.g. '+15551234567'."
        )
    return value


def require_criteria(given: dict[str, object]) -> None:
    """Refuse a search with no criterion at all, as the reference's searches do.

    Raises:
        InvalidArgumentError: naming the criteria to choose from.
    """
    if all(value is None for value in given.values()):
        raise InvalidArgumentError(
            "No search criteria given. Give at least one of: " + ", ".join(given) + "."
        )


def timestamp(value: float, name: str = "timestamp") -> float:
    """A POSIX timestamp in seconds between 1970 and 2100.

    Raises:
        InvalidArgumentError: when the value is not finite or out of that range.
    """
    number = float(value)
    if not math.isfinite(number) or not MIN_TIMESTAMP <= number < MAX_TIMESTAMP:
        hint = " (it looks like milliseconds; divide by 1000)" if number >= MAX_TIMESTAMP else ""
        raise InvalidArgumentError(
            f"{name}: {value!r} is not a POSIX timestamp in seconds between 1970 and 2100{hint}."
        )
    return number


def latitude(value: float, name: str = "latitude") -> float:
    """A latitude in degrees, -90 to 90.

    Raises:
        InvalidArgumentError: when out of range or not finite.
    """
    number = float(value)
    if not math.isfinite(number) or not -90.0 <= number <= 90.0:
        raise InvalidArgumentError(f"{name}: {value!r} is not a latitude (-90 to 90 degrees).")
    return number


def longitude(value: float, name: str = "longitude") -> float:
    """A longitude in degrees, -180 to 180.

    Raises:
        InvalidArgumentError: when out of range or not finite.
    """
    number = float(value)
    if not math.isfinite(number) or not -180.0 <= number <= 180.0:
        raise InvalidArgumentError(f"{name}: {value!r} is not a longitude (-180 to 180 degrees).")
    return number


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
            f"{names[0] if lat is not None else names[1]}."
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
