"""Reminders domain: reminders with a due time and an optional place."""

from toolplay.domains.reminders._tables import REMINDERS
from toolplay.domains.reminders._tools import TOOLS
from toolplay.tools._registry import Domain

DOMAIN = Domain("reminders", {"reminders": REMINDERS}, TOOLS, __doc__ or "")

__all__ = ["DOMAIN", "REMINDERS"]
