"""Places domain: find places by name or kind around a point, and the address of a point."""

from toolplay.domains.places._tools import TOOLS
from toolplay.domains.settings import DEFAULT_SETTINGS, SETTINGS
from toolplay.tools._registry import Domain

DOMAIN = Domain(
    "places", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
