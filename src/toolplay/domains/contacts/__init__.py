"""Contacts domain: the user's contact book."""

from toolplay.domains.contacts._tables import CONTACTS
from toolplay.domains.contacts._tools import TOOLS, find_contacts
from toolplay.tools._registry import Domain

DOMAIN = Domain("contacts", {"contacts": CONTACTS}, TOOLS, __doc__ or "")

__all__ = ["CONTACTS", "DOMAIN", "find_contacts"]
