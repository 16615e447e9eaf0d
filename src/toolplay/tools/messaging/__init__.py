"""Messaging domain: send and search text messages."""

from toolplay.tools._registry import Domain
from toolplay.tools.contacts import CONTACTS
from toolplay.tools.messaging._tables import MESSAGES
from toolplay.tools.messaging._tools import TOOLS
from toolplay.tools.settings import DEFAULT_SETTINGS, SETTINGS

DOMAIN = Domain(
    "messaging",
    {"messages": MESSAGES, "settings": SETTINGS, "contacts": CONTACTS},
    TOOLS,
    __doc__ or "",
    {"settings": [DEFAULT_SETTINGS]},
)

__all__ = ["DOMAIN", "MESSAGES"]
