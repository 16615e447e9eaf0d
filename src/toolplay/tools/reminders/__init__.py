"""Reminders domain: reminders with a due time and an optional place."""

from toolplay.tools._registry import Domain
from toolplay.tools.reminders._tables import REMINDERS
from toolplay.tools.reminders._tools import TOOLS

DOMAIN = Domain("reminders", {"reminders": REMINDERS}, TOOLS, __doc__ or "")

__all__ = ["DOMAIN", "REMINDERS"]
