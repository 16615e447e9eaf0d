"""The simulated tool domains toolplay ships: each a package of `@tool` functions and tables.

The ToolSandbox-style world (`settings`, `contacts`, `messaging`, ...) and ToolTalk's seven
plugins (`tooltalk`). Domains hold tools only; the methods that score conversations over them
live in `toolplay.methods`.
"""

from __future__ import annotations

from toolplay.tools import Domain

__all__ = ["SANDBOX_DOMAINS", "builtin_domains"]


def builtin_domains() -> list[Domain]:
    """Every built-in domain (imported on demand)."""
    from toolplay.domains import (
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
    return found


SANDBOX_DOMAINS: tuple[str, ...] = (
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
)
"""The `sandbox` group: the whole ToolSandbox-style world, so every tool of it can run (and
serve as a distraction tool) in any scenario."""
