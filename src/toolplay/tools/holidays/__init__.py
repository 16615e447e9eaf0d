"""Holidays domain: the date of a public holiday by name (the `holidays` package)."""

from toolplay.tools._registry import Domain
from toolplay.tools.holidays._tools import TOOLS
from toolplay.tools.settings import DEFAULT_SETTINGS, SETTINGS

DOMAIN = Domain(
    "holidays", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
