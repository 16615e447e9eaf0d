"""Holidays domain: the date of a public holiday by name (the `holidays` package)."""

from toolplay.domains.holidays._tools import TOOLS
from toolplay.domains.settings import DEFAULT_SETTINGS, SETTINGS
from toolplay.tools._registry import Domain

DOMAIN = Domain(
    "holidays", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
