"""Every built-in domain, by name. Add a domain here to make it available to scenarios."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from toolplay.tools._errors import RegistryError
from toolplay.tools._registry import Domain, Registry, build_registry


def domains() -> dict[str, Domain]:
    """All built-in domains by name (imported on demand)."""
    from toolplay.tools import (
        contacts,
        holidays,
        mathutil,
        messaging,
        places,
        reminders,
        settings,
        stocks,
        timeutil,
        tooltalk,
        weather,
    )

    found = [settings.DOMAIN, contacts.DOMAIN, messaging.DOMAIN]
    found += [reminders.DOMAIN, timeutil.DOMAIN, mathutil.DOMAIN]
    found += [places.DOMAIN, weather.DOMAIN, stocks.DOMAIN, holidays.DOMAIN]
    found += list(tooltalk.DOMAINS)
    return {domain.name: domain for domain in found}


GROUPS: dict[str, tuple[str, ...]] = {
    "sandbox": (
        "settings",
        "contacts",
        "messaging",
        "reminders",
        "timeutil",
        "mathutil",
        "places",
        "weather",
        "stocks",
        "holidays",
    ),
}
"""Domain groups usable wherever a domain name is: `sandbox` is the whole ToolSandbox-style
world, so every tool of it can run (and serve as a distraction tool) in any scenario."""


def expand_domains(names: Iterable[str]) -> tuple[str, ...]:
    """Domain names with groups replaced by their members, duplicates dropped, order kept."""
    expanded: list[str] = []
    for name in names:
        expanded.extend(GROUPS.get(name, (name,)))
    return tuple(dict.fromkeys(expanded))


def registry_for(names: Iterable[str]) -> Registry:
    """A registry of the named built-in domains or groups; unknown names fail with the known.

    Registries are immutable, so one is built per distinct list of domains and reused.
    """
    return _registry(expand_domains(names))


@lru_cache(maxsize=256)
def _registry(wanted: tuple[str, ...]) -> Registry:
    known = domains()
    missing = [n for n in wanted if n not in known]
    if missing:
        known_names = sorted(known) + sorted(GROUPS)
        raise RegistryError(f"unknown domain(s) {missing}; known: {known_names}")
    return build_registry(known[n] for n in wanted)
