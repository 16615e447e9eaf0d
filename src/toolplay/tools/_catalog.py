"""Every built-in domain, by name. Add a domain here to make it available to scenarios."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from toolplay.tools._errors import RegistryError
from toolplay.tools._registry import Domain, Registry, build_registry


def domains() -> dict[str, Domain]:
    """All built-in domains by name (imported on demand)."""
    from toolplay.tools import contacts, messaging, settings

    found = [settings.DOMAIN, contacts.DOMAIN, messaging.DOMAIN]
    return {domain.name: domain for domain in found}


def registry_for(names: Iterable[str]) -> Registry:
    """A registry of the named built-in domains; unknown names fail with the known ones.

    Registries are immutable, so one is built per distinct list of domains and reused.
    """
    return _registry(tuple(dict.fromkeys(names)))


@lru_cache(maxsize=256)
def _registry(wanted: tuple[str, ...]) -> Registry:
    known = domains()
    missing = [n for n in wanted if n not in known]
    if missing:
        raise RegistryError(f"unknown domain(s) {missing}; known: {sorted(known)}")
    return build_registry(known[n] for n in wanted)
