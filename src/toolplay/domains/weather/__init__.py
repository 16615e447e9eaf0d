"""Weather domain: today's weather and forecasts around a point, from bundled climate data."""

from toolplay.domains.settings import DEFAULT_SETTINGS, SETTINGS
from toolplay.domains.weather._tools import TOOLS
from toolplay.tools._registry import Domain

DOMAIN = Domain(
    "weather", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
