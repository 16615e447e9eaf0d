"""Math and unit utilities: unit conversion, currency conversion, distance between points."""

from toolplay.tools._registry import Domain
from toolplay.tools.mathutil._tools import TOOLS
from toolplay.tools.settings import DEFAULT_SETTINGS, SETTINGS

DOMAIN = Domain(
    "mathutil", {"settings": SETTINGS}, TOOLS, __doc__ or "", {"settings": [DEFAULT_SETTINGS]}
)

__all__ = ["DOMAIN"]
