"""Weather domain: today's weather and forecasts around a point, from bundled climate data."""

from toolplay.tools._registry import Domain
from toolplay.tools.settings import DEFAULT_SETTINGS, SETTINGS
from toolplay.tools.weather._tools import TOOLS

DOMAIN = Domain(
    "weather", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
