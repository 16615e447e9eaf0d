"""Sunrise, sunset and the moon's phase for a place and day (plain astronomy, approximate).

Sunrise and sunset use the solar declination and the equation of time (NOAA's short form,
within a few minutes); the moon's age is counted from a known new moon (2000-01-06 18:14 UTC)
in synodic months. Enough for a weather report; deterministic.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, timedelta, tzinfo

SYNODIC_MONTH = 29.530588853
NEW_MOON = datetime(2000, 1, 6, 18, 14, tzinfo=UTC)
PHASES = (
    "New Moon",
    "Waxing Crescent",
    "First Quarter",
    "Waxing Gibbous",
    "Full Moon",
    "Waning Gibbous",
    "Last Quarter",
    "Waning Crescent",
)


def declination(day: date) -> float:
    """The sun's declination in degrees on `day`."""
    return 23.44 * math.sin(2 * math.pi * (284 + day.timetuple().tm_yday) / 365)


def sun_times(
    latitude: float, longitude: float, day: date, zone: tzinfo
) -> tuple[datetime, datetime] | None:
    """Local sunrise and sunset on `day`, or None when the sun does not rise or set."""
    n = day.timetuple().tm_yday
    lat, decl = math.radians(latitude), math.radians(declination(day))
    cos_h = (math.sin(math.radians(-0.833)) - math.sin(lat) * math.sin(decl)) / (
        math.cos(lat) * math.cos(decl)
    )
    if not -1.0 <= cos_h <= 1.0:
        return None
    half_day = math.degrees(math.acos(cos_h)) * 4  # minutes
    b = 2 * math.pi * (n - 81) / 364
    equation = 9.87 * math.sin(2 * b) - 7.53 * math.cos(b) - 1.5 * math.sin(b)
    noon = 720 - 4 * longitude - equation  # minutes after 00:00 UTC
    midnight = datetime(day.year, day.month, day.day, tzinfo=UTC)
    rise = midnight + timedelta(minutes=noon - half_day)
    fall = midnight + timedelta(minutes=noon + half_day)
    return rise.astimezone(zone), fall.astimezone(zone)


def moon(day: date) -> tuple[str, int]:
    """The moon's phase name and illuminated percentage at noon UTC on `day`."""
    noon = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    age = ((noon - NEW_MOON).total_seconds() / 86400) % SYNODIC_MONTH
    phase = PHASES[int((age / SYNODIC_MONTH) * 8 + 0.5) % 8]
    return phase, round(50 * (1 - math.cos(2 * math.pi * age / SYNODIC_MONTH)))


def clock_text(moment: datetime) -> str:
    """A time of day as weather services write it: "06:24 AM"."""
    return moment.strftime("%I:%M %p")
