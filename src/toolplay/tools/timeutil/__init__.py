"""Time utilities: the frozen clock's now, timestamps to and from dates, shifts, differences."""

from toolplay.tools._registry import Domain
from toolplay.tools.timeutil._tools import TOOLS

DOMAIN = Domain("timeutil", {}, TOOLS, __doc__ or "")

__all__ = ["DOMAIN"]
