"""Public holiday lookup by name, from the `holidays` package; an "online" lookup (wifi).

The reference searches US holidays only; a `country` argument (ISO 3166 alpha-2, default
"US") opens the package's other calendars. Names match forgivingly ("christmas", and a few
nicknames such as "july 4th"); among matches above `NAME_THRESHOLD` the closest whole name
wins, the earlier date breaking ties. The year defaults to the frozen clock's.
"""

from __future__ import annotations

from datetime import datetime, time
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

from toolplay.domains.settings import require_setting
from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.tools._match import normalise, partial_ratio
from toolplay.world import World

NAME_THRESHOLD = 0.9
NICKNAMES = {
    "mlk day": "Martin Luther King Jr. Day",
    "july 4th": "Independence Day",
    "4th of july": "Independence Day",
    "fourth of july": "Independence Day",
    "presidents day": "Washington's Birthday",
    "xmas": "Christmas Day",
}
"""Everyday names of US holidays that share no words with their official names."""
MIN_YEAR, MAX_YEAR = 1970, 2099


@lru_cache(maxsize=1)
def supported_countries() -> frozenset[str]:
    """ISO codes of the countries the `holidays` package has calendars for."""
    import holidays as holiday_data  # noqa: PLC0415 (start-up time: imported on first use)

    return frozenset(holiday_data.list_supported_countries())


@tool(kind="read", reads={"settings"})
def search_holiday(
    world: World, holiday_name: str, year: int | None = None, country: str = "US"
) -> dict[str, Any] | None:
    """Find the date of a public holiday by name. Needs wifi on.

    Gives the holiday's official name, its date (YYYY-MM-DD) and the POSIX timestamp of
    midnight at its start in the user's time zone. Null when no holiday matches.

    Args:
        holiday_name: Name of the holiday, e.g. "Thanksgiving".
        year: Year to look in; defaults to the current year.
        country: ISO 3166 two-letter country code, e.g. "US" or "GB".
    """
    _validate.not_blank(holiday_name, "holiday_name")
    code = country.strip().upper()
    if code not in supported_countries():
        raise InvalidArgumentError(
            f"country: {country!r} is not a supported ISO 3166 two-letter country code "
            "(e.g. 'US', 'GB', 'DE', 'JP')."
        )
    when = world.clock.year if year is None else year
    if not MIN_YEAR <= when <= MAX_YEAR:
        raise InvalidArgumentError(f"year must be between {MIN_YEAR} and {MAX_YEAR}, got {when}.")
    require_setting(world, "wifi", "Wifi")
    import holidays as holiday_data  # noqa: PLC0415 (loaded by supported_countries already)

    calendar = holiday_data.country_holidays(code, years=when, language="en_US")
    query = NICKNAMES.get(normalise(holiday_name), holiday_name)
    best: tuple[tuple[float, float], Any, str] | None = None
    for day, names in sorted(calendar.items()):
        for name in str(names).split("; "):
            partial = partial_ratio(query, name)
            if partial < NAME_THRESHOLD:
                continue
            score = (partial, SequenceMatcher(None, normalise(query), normalise(name)).ratio())
            if best is None or score > best[0]:
                best = (score, day, name)
    if best is None:
        return None
    _, day, name = best
    midnight = datetime.combine(day, time(0, 0), tzinfo=world.clock.tzinfo)
    return {"name": name, "date": day.isoformat(), "timestamp": midnight.timestamp()}


TOOLS = [search_holiday]
