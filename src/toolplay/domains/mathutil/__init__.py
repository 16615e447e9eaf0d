"""Math and unit utilities: unit conversion, currency conversion, distance between points."""

from toolplay.domains.mathutil._tools import TOOLS
from toolplay.domains.settings import DEFAULT_SETTINGS, SETTINGS
from toolplay.tools._registry import Domain

DOMAIN = Domain(
    "mathutil", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
