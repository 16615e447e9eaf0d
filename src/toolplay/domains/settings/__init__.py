"""Device settings domain: cellular, wifi, location service, low-battery mode, location."""

from toolplay.domains.settings._tables import DEFAULT_SETTINGS, SETTINGS
from toolplay.domains.settings._tools import TOOLS, device, point_or_current, require_setting
from toolplay.tools._registry import Domain

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
