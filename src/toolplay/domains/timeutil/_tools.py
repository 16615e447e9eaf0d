"""Time utility tools over POSIX timestamps, in the time zone of the scenario's clock.

"Now" is the world's frozen clock, never the wall clock. Dates are read and built in the
clock's own time zone (a scenario set in Los Angeles gives its clock a -07:00 offset), which is
what the reference's local-time conversions amount to on the user's device: shifts and
differences are wall-clock arithmetic in that zone, as the reference's naive local datetimes.
As in the ToolSandbox reference, timestamps given must lie from 1980 to 2050, a date needs all
six parts, and Python's own refusals (an impossible date, a shift too large) are reported as
Python words them (code `EXCEPTION`).
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError
from toolplay.world import World


def _zone(world: World) -> tzinfo:
    zone = world.clock.tzinfo
    if zone is None:
        raise RuntimeError("the world clock must be time-zone aware")
    return zone


@tool(kind="read")
def get_current_timestamp(world: World) -> float:
    """Get the current time as a POSIX timestamp in seconds."""
    return world.clock.timestamp()


@tool(kind="read")
def timestamp_to_datetime_info(world: World, timestamp: float) -> dict[str, int]:
    """Break a POSIX timestamp into local date and time parts.

    Returns year, month, day, hour, minute, second and isoweekday (1 = Monday ... 7 = Sunday).

    Args:
        timestamp: POSIX timestamp in seconds.
    """
    moment = datetime.fromtimestamp(_validate.timestamp(timestamp), _zone(world))
    return {
        "year": moment.year,
        "month": moment.month,
        "day": moment.day,
        "hour": moment.hour,
        "minute": moment.minute,
        "second": moment.second,
        "isoweekday": moment.isoweekday(),
    }


@tool(kind="read")
def datetime_info_to_timestamp(
    world: World,
    year: int,
    month: int,
    day: int,
    hour: int,
    minute: int,
    second: int,
) -> float:
    """Turn a local date and time into a POSIX timestamp in seconds.

    Args:
        year: Four-digit year.
        month: Month, 1 to 12.
        day: Day of the month, 1 to 31.
        hour: Hour in 24-hour format, 0 to 23.
        minute: Minute, 0 to 59.
        second: Second, 0 to 59.
    """
    try:
        moment = datetime(year, month, day, hour, minute, second, tzinfo=_zone(world))
        return moment.timestamp()
    except (ValueError, OverflowError) as exc:
        raise InvalidArgumentError.of(
            f"{year}-{month}-{day} {hour}:{minute}:{second} is not a valid date and time ({exc}).",
            exc,
        ) from None


@tool(kind="read")
def shift_timestamp(
    world: World,
    timestamp: float,
    weeks: int = 0,
    days: int = 0,
    hours: int = 0,
    minutes: int = 0,
    seconds: int = 0,
) -> float:
    """Move a POSIX timestamp forward (positive amounts) or back (negative amounts).

    Args:
        timestamp: POSIX timestamp in seconds to shift.
        weeks: Weeks to add.
        days: Days to add.
        hours: Hours to add.
        minutes: Minutes to add.
        seconds: Seconds to add.
    """
    start = datetime.fromtimestamp(_validate.timestamp(timestamp), _zone(world))
    try:
        delta = timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes, seconds=seconds)
        return (start + delta).timestamp()
    except (OverflowError, ValueError) as exc:
        raise InvalidArgumentError.of(f"the shift is too large ({exc}).", exc) from None


@tool(kind="read")
def timestamp_diff(world: World, timestamp_0: float, timestamp_1: float) -> dict[str, int]:
    """Difference timestamp_1 - timestamp_0 as whole days plus remaining seconds.

    A negative difference has negative days and seconds in [0, 86400), as Python's timedelta.

    Args:
        timestamp_0: POSIX timestamp to subtract.
        timestamp_1: POSIX timestamp to subtract from.
    """
    zone = _zone(world)
    start = datetime.fromtimestamp(_validate.timestamp(timestamp_0, "timestamp_0"), zone)
    end = datetime.fromtimestamp(_validate.timestamp(timestamp_1, "timestamp_1"), zone)
    delta = end - start
    return {"days": delta.days, "seconds": delta.seconds}


@tool(kind="read")
def seconds_to_hours_minutes_seconds(world: World, seconds: float) -> dict[str, int]:
    """Convert a number of seconds past 0:00 into hour, minute and second of the day.

    As the reference's tool does, the seconds are read as a POSIX timestamp in the local time
    zone, so a day or more wraps around and the zone's offset applies.

    Args:
        seconds: Number of seconds past 0:00.
    """
    try:
        moment = datetime.fromtimestamp(seconds, _zone(world))
    except (OverflowError, OSError, ValueError):
        raise InvalidArgumentError(f"seconds: {seconds!r} is out of range.") from None
    return {"hour": moment.hour, "minute": moment.minute, "second": moment.second}


TOOLS = [
    get_current_timestamp,
    timestamp_to_datetime_info,
    datetime_info_to_timestamp,
    shift_timestamp,
    timestamp_diff,
    seconds_to_hours_minutes_seconds,
]
