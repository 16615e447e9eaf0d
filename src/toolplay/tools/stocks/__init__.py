"""Stocks domain: quotes for companies by name or ticker symbol, from bundled data."""

from toolplay.tools._registry import Domain
from toolplay.tools.settings import DEFAULT_SETTINGS, SETTINGS
from toolplay.tools.stocks._tools import TOOLS

DOMAIN = Domain(
    "stocks", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
