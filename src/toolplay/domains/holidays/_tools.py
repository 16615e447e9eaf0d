"""Public holiday lookup by name, from the `holidays` package; an "online" lookup (wifi).

As the ToolSandbox reference's `search_holiday`: wifi must be on (checked first); the holidays
of the year (default: the frozen clock's year) are ranked by rapidfuzz's `partial_ratio` of the
query against each holiday's name (after its default processing), then by date and name, best
first; the best one is the answer if it scores above `THRESHOLD`: the POSIX timestamp of
midnight at its start in the user's time zone. Otherwise None.

The reference searches US holidays only; toolplay's tool takes an optional `country` (ISO 3166
alpha-2, default "US", so a call without it is the reference's) that opens the package's other
calendars for toolplay's own scenarios. The ToolSandbox presentation shows the reference's
schema, without it, and refuses it as the reference does (an unexpected argument).
"""

from __future__ import annotations

from datetime import datetime, time
from functools import lru_cache

from toolplay.domains.settings import require_setting
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.world import World

THRESHOLD = 90.0
"""partial_ratio (0-100) the best holiday must exceed (the reference's)."""


@lru_cache(maxsize=1)
def supported_countries() -> frozenset[str]:
    """ISO codes of the countries the `holidays` package has calendars for."""
    import holidays as holiday_data  # noqa: PLC0415 (start-up time: imported on first use)

    return frozenset(holiday_data.list_supported_countries())


@tool(kind="read", reads={"settings"})
def search_holiday(
    world: World, holiday_name: str, year: int | None = None, country: str = "US"
) -> float | None:
    """Find when a public holiday is, by name. Needs wifi on.

    Gives the POSIX timestamp of midnight at the start of the holiday in the user's time zone,
    or null when no holiday matches the name.

    Args:
        holiday_name: Name of the holiday, e.g. "Thanksgiving".
        year: Year to look in; defaults to the current year.
        country: ISO 3166 two-letter country code, e.g. "US" or "GB".
    """
    require_setting(world, "wifi", "Wifi")
    code = country.strip().upper()
    if code not in supported_countries():
        raise InvalidArgumentError(
            f"country: {country!r} is not a supported ISO 3166 two-letter country code "
            "(e.g. 'US', 'GB', 'DE', 'JP')."
        )
    when = world.clock.year if year is None else year
    import holidays as holiday_data  # noqa: PLC0415 (loaded by supported_countries already)
    from rapidfuzz import fuzz, utils  # noqa: PLC0415 (start-up time)

    try:
        if code == "US":  # exactly the reference's calendar
            calendar = holiday_data.country_holidays("US", years=when)
        else:
            calendar = holiday_data.country_holidays(code, years=when, language="en_US")
        ranked = sorted(
            (
                (fuzz.partial_ratio(holiday_name, name, processor=utils.default_process), day, name)
                for day, name in calendar.items()
            ),
            reverse=True,
        )
    except (ValueError, OverflowError, NotImplementedError) as exc:
        message = f"year: cannot list the holidays of {when} ({exc})."
        raise InvalidArgumentError.of(message, exc) from None
    if not ranked or ranked[0][0] <= THRESHOLD:
        return None
    midnight = datetime.combine(ranked[0][1], time(0, 0), tzinfo=world.clock.tzinfo)
    return midnight.timestamp()


TOOLS = [search_holiday]
