"""Stocks domain: quotes for companies by name or ticker symbol, from bundled data."""

from toolplay.domains.settings import DEFAULT_SETTINGS, SETTINGS
from toolplay.domains.stocks._tools import TOOLS
from toolplay.tools._registry import Domain

DOMAIN = Domain(
    "stocks", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
