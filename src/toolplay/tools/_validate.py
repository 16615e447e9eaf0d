"""Shared argument checks that several domains need (phone numbers, ...)."""

from __future__ import annotations

import re

from toolplay.tools._errors import InvalidArgumentError

_PHONE = re.compile(r"\+?\d{7,15}")


def phone_number(value: str) -> str:
    """Canonical phone number: digits with an optional leading '+', separators removed.

    Raises:
        InvalidArgumentError: when the value is not 7 to 15 digits.
    """
    compact = re.sub(r"[\s\-().]", "", value)
    if not _PHONE.fullmatch(compact):
        raise InvalidArgumentError(
            f"{value!r} is not a valid phone number: use 7 to 15 digits, optionally starting "
            "with '+', e.g. '+15551234567'."
        )
    return compact
