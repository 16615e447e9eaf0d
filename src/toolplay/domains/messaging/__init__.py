"""Messaging domain: send and search text messages."""

from toolplay.domains.contacts import CONTACTS
from toolplay.domains.messaging._tables import MESSAGES
from toolplay.domains.messaging._tools import TOOLS
from toolplay.domains.settings import DEFAULT_SETTINGS, SETTINGS
from toolplay.tools._registry import Domain

DOMAIN = Domain(
    "messaging",
    {"messages": MESSAGES, "settings": SETTINGS, "contacts": CONTACTS},
    TOOLS,
    __doc__ or "",
    {"settings": [DEFAULT_SETTINGS]},
)

__all__ = ["DOMAIN", "MESSAGES"]
