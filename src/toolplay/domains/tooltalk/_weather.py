"""Weather: today's weather, a 3-day forecast and monthly climate figures of a location.

Locations are matched case-insensitively; "today" is the scenario's clock.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from toolplay.domains.tooltalk._common import MissingEntryError, record
from toolplay.domains.tooltalk._texts import refusal
from toolplay.tools._decorator import tool
from toolplay.tools._errors import NotFoundError
from toolplay.world import World

WEATHER = "tooltalk_weather"
HISTORIC = "tooltalk_historic_weather"
FORECAST_DAYS = 3


def _day(world: World, place: str, offset: int) -> dict[str, Any]:
    day = world.clock.date() + timedelta(days=offset)
    row = world.find_one(WEATHER, {"location": place, "date": day.isoformat()})
    if row is None:
        raise MissingEntryError(f"No weather data for {place} on {day.isoformat()}.", day)
    return record(row, "location")


def _known(world: World, table: str, location: str) -> str:
    place = location.lower().strip()
    if world.find_one(table, {"location": place}) is None:
        raise NotFoundError(refusal("unknown_location", location=place))
    return place


@tool(kind="read", reads={WEATHER}, name="CurrentWeather")
def current_weather(world: World, location: str) -> dict[str, Any]:
    """Get today's weather (high, low, conditions) for a location.

    Args:
        location: The city, e.g. "London".
    """
    return {"weather": _day(world, _known(world, WEATHER, location), 0)}


@tool(kind="read", reads={WEATHER}, name="ForecastWeather")
def forecast_weather(world: World, location: str) -> dict[str, Any]:
    """Get the weather forecast for the next 3 days for a location.

    Args:
        location: The city, e.g. "London".
    """
    place = _known(world, WEATHER, location)
    return {"forecast": [_day(world, place, day) for day in range(1, FORECAST_DAYS + 1)]}


@tool(kind="read", reads={HISTORIC}, name="HistoricWeather")
def historic_weather(world: World, location: str, month: str) -> dict[str, Any]:
    """Get a location's usual weather for a month (temperatures in °F, rainfall in inches).

    Args:
        location: The city, e.g. "London".
        month: The month's full name, e.g. "September".
    """
    place = _known(world, HISTORIC, location)
    row = world.find_one(HISTORIC, {"location": place, "month": month.lower()})
    if row is None:
        raise NotFoundError(refusal("no_month_data", location=place, month=month.lower()))
    return {"weather": record(row, "location", "month")}


TOOLS: list[Callable[..., Any]] = [current_weather, forecast_weather, historic_weather]
