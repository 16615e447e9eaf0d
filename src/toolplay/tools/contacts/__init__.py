"""Contacts domain: the user's contact book."""

from toolplay.tools._registry import Domain
from toolplay.tools.contacts._tables import CONTACTS
from toolplay.tools.contacts._tools import TOOLS

DOMAIN = Domain("contacts", {"contacts": CONTACTS}, TOOLS, __doc__ or "")

__all__ = ["CONTACTS", "DOMAIN"]
