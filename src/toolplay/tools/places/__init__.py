"""Places domain: find places by name or kind around a point, and the address of a point."""

from toolplay.tools._registry import Domain
from toolplay.tools.places._tools import TOOLS
from toolplay.tools.settings import DEFAULT_SETTINGS, SETTINGS

DOMAIN = Domain(
    "places", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
