"""Time utilities: the frozen clock's now, timestamps to and from dates, shifts, differences."""

from toolplay.domains.timeutil._tools import TOOLS
from toolplay.tools._registry import Domain

DOMAIN = Domain("timeutil", {}, TOOLS, __doc__ or "")

__all__ = ["DOMAIN"]
