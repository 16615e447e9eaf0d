"""Device settings domain: cellular, wifi, location service, low-battery mode, location."""

from toolplay.tools._registry import Domain
from toolplay.tools.settings._tables import DEFAULT_SETTINGS, SETTINGS
from toolplay.tools.settings._tools import TOOLS, device, point_or_current, require_setting

DOMAIN = Domain(
    "settings", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = [
    "DEFAULT_SETTINGS",
    "DOMAIN",
    "SETTINGS",
    "device",
    "point_or_current",
    "require_setting",
]
