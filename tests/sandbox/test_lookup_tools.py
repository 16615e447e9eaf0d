"""Math utilities and the "online" lookups served from bundled data (wifi needed)."""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Sandbox


@pytest.mark.parametrize(
    ("amount", "source", "target", "expected"),
    [
        (72, "fahrenheit", "celsius", 22.222222),
        (0, "celsius", "kelvin", 273.15),
        (5, "miles", "km", 8.04672),
        (1, "gallon", "liters", 3.785411784),
        (10, "lbs", "kilograms", 4.5359237),
        (
            1,
            "acre",
            "square meters",
            4046.8726098742513,
        ),  # pint's acre (US survey), as the reference
        (100, "km/h", "mph", 62.137119),
    ],
)
def test_unit_conversion(
    sandbox: Sandbox, amount: float, source: str, target: str, expected: float
) -> None:
    assert math.isclose(
        sandbox.ok("unit_conversion", amount=amount, from_unit=source, to_unit=target),
        expected,
        rel_tol=1e-6,
    )


def test_unit_conversion_is_pints_as_in_the_reference(sandbox: Sandbox) -> None:
    # pint's magnitudes to the last digit (the amount taken as a float, as the reference's pint)
    assert sandbox.ok("unit_conversion", amount=100, from_unit="celsius", to_unit="fahrenheit") == (
        211.99999999999991
    )
    assert sandbox.ok("unit_conversion", amount=2, from_unit="hour", to_unit="minute") == 120.0
    # a name pint does not know is tried again lower-cased
    assert sandbox.ok("unit_conversion", amount=1, from_unit="Kilometer", to_unit="Meter") == 1000.0


def test_unit_conversion_refusals(sandbox: Sandbox) -> None:
    sandbox.fails(
        "unit_conversion", "'florps' is not defined", amount=1, from_unit="florps", to_unit="km"
    )
    sandbox.fails("unit_conversion", "[mass]", amount=1, from_unit="kg", to_unit="km")


def test_currency_conversion_needs_known_codes_and_wifi(sandbox: Sandbox) -> None:
    assert sandbox.ok(
        "convert_currency", amount=92, from_currency_code="eur", to_currency_code="USD"
    ) == pytest.approx(100.0)
    assert sandbox.ok(
        "convert_currency", amount=2048, from_currency_code="USD", to_currency_code="CNY"
    ) == pytest.approx(14827.52)
    for bad in ("euro", "XYZ", " USD"):  # the reference's codes: upper-cased, never stripped
        sandbox.fails(
            "convert_currency",
            "not a known iso 4217",
            amount=1,
            from_currency_code=bad,
            to_currency_code="USD",
        )
    sandbox.fails(
        "convert_currency",
        "to_currency_code",
        amount=1,
        from_currency_code="USD",
        to_currency_code="ABC",
    )
    sandbox.reset(settings=[sandbox.settings_row(wifi=False)])
    sandbox.fails(
        "convert_currency", "wifi", amount=1, from_currency_code="EUR", to_currency_code="USD"
    )
    sandbox.fails(  # the codes are checked before wifi, as in the reference
        "convert_currency", "iso 4217", amount=1, from_currency_code="EUX", to_currency_code="USD"
    )


def test_distance(sandbox: Sandbox) -> None:
    km = sandbox.ok(
        "calculate_lat_lon_distance",
        latitude_0=37.8199,
        longitude_0=-122.4783,
        latitude_1=37.3349,
        longitude_1=-122.009,
    )
    assert km == 67.94193966129968  # geopy's geodesic, as the reference
    assert (
        sandbox.ok(
            "calculate_lat_lon_distance", latitude_0=0, longitude_0=0, latitude_1=0, longitude_1=0
        )
        == 0.0
    )
    sandbox.fails(
        "calculate_lat_lon_distance",
        "longitude_1",
        latitude_0=0,
        longitude_0=0,
        latitude_1=0,
        longitude_1=200,
    )


def test_place_search_nearest_first_and_reverse_lookup(sandbox: Sandbox) -> None:
    found = sandbox.ok("search_location_around_lat_lon", location="sunrise grocery")
    assert [p["full_address"].split(",")[1].strip() for p in found] == [
        "Cupertino",
        "Mountain View",
        "San Jose",
    ]
    assert set(found[0]) >= {"name", "full_address", "latitude", "longitude", "phone_number"}
    assert not set(found[0]) & {"business_id", "place_id", "place_link", "verified", "photos"}
    sf = sandbox.ok(
        "search_location_around_lat_lon",
        location="Sunrise Grocery",
        latitude=37.7749,
        longitude=-122.4194,
    )
    assert sf[0]["full_address"].startswith("1600 Fillmore")
    assert (
        sandbox.ok("search_location_around_lat_lon", location="italian restaurant")[0]["name"]
        == "Trattoria Vicino"
    )
    assert len(sandbox.ok("search_location_around_lat_lon", location="hotel")) == 4
    assert sandbox.ok("search_location_around_lat_lon", location="zzzz") == []
    assert sandbox.ok("search_lat_lon", latitude=37.3349, longitude=-122.009).startswith(
        "Apple Park, 1 Apple Park Way"
    )
    assert sandbox.ok("search_lat_lon", latitude=47.61, longitude=-122.30) == (
        "Seattle, Washington, United States"
    )
    assert sandbox.ok("search_lat_lon", latitude=0, longitude=0) is None


def test_lookups_need_wifi_and_location_for_here(sandbox: Sandbox) -> None:
    sandbox.reset(settings=[sandbox.settings_row(location_service=False)])
    sandbox.fails("search_location_around_lat_lon", "location service", location="cafe")
    sandbox.fails("search_weather_around_lat_lon", "location service")
    assert sandbox.ok("search_weather_around_lat_lon", latitude=47.6, longitude=-122.3)
    sandbox.reset(settings=[sandbox.settings_row(wifi=False)])
    calls: list[tuple[str, dict[str, Any]]] = [
        ("search_location_around_lat_lon", {"location": "cafe"}),
        ("search_lat_lon", {"latitude": 1.0, "longitude": 1.0}),
        ("search_weather_around_lat_lon", {}),
        ("search_stock", {"query": "AAPL"}),
        ("search_holiday", {"holiday_name": "Christmas"}),
    ]
    for name, arguments in calls:
        sandbox.fails(name, "wifi", **arguments)
    # the reference's order: ranges, both-or-neither and location come before wifi
    sandbox.fails("search_lat_lon", "latitude", latitude=91.0, longitude=0.0)
    sandbox.fails("search_weather_around_lat_lon", "give both", latitude=1.0)
    sandbox.fails("search_weather_around_lat_lon", "days", days=-1)


def test_weather_is_fixed_per_place_and_day(sandbox: Sandbox) -> None:
    today = sandbox.ok("search_weather_around_lat_lon")
    assert today["name"] == "Cupertino" and today["localtime"].startswith("2024-05-10")
    assert today["min_temperature"] <= today["current_temperature"] <= today["max_temperature"]
    assert today["temperature_unit"] == "Celsius" and "temp_c" not in today
    assert today == sandbox.fresh().ok("search_weather_around_lat_lon")
    later = sandbox.ok("search_weather_around_lat_lon", days=6)
    assert (
        "current_temperature" not in later and later["max_temperature"] >= later["min_temperature"]
    )
    assert later != sandbox.ok("search_weather_around_lat_lon", days=5)
    assert sandbox.ok("search_weather_around_lat_lon", days=13) is not None
    assert sandbox.ok("search_weather_around_lat_lon", days=14) is None  # past the forecast
    assert sandbox.ok("search_weather_around_lat_lon", latitude=0.0, longitude=-140.0) is None
    sandbox.fails("search_weather_around_lat_lon", "days", days=-1)
    sandbox.fails("search_weather_around_lat_lon", "give both", latitude=1.0)


def test_stock_and_holiday_lookups(sandbox: Sandbox) -> None:
    apple = sandbox.ok("search_stock", query="aapl")
    assert apple["price"] == 189.84 and apple["symbol"] == "AAPL"  # the exchange suffix cut
    assert sandbox.ok("search_stock", query="Apple")["symbol"] == "AAPL"
    assert sandbox.ok("search_stock", query="Google")["symbol"] == "GOOGL"
    assert sandbox.ok("search_stock", query="Unknown Widgets") is None
    assert sandbox.ok("search_stock", query="") is None
    # the reference's result: midnight's timestamp in the user's zone, or None
    assert sandbox.ok("search_holiday", holiday_name="thanksgiving") == 1732777200.0
    july_4th = sandbox.ok("search_holiday", holiday_name="Independence Day", year=2025)
    assert datetime.fromtimestamp(july_4th, sandbox.world.clock.tzinfo).date() == date(2025, 7, 4)
    assert sandbox.ok("search_holiday", holiday_name="4th of July", year=2025) is None
    boxing_day = sandbox.ok("search_holiday", holiday_name="Boxing Day", year=2025, country="gb")
    assert datetime.fromtimestamp(boxing_day, sandbox.world.clock.tzinfo).date() == date(
        2025, 12, 26
    )
    assert sandbox.ok("search_holiday", holiday_name="Diwali") is None
    sandbox.fails("search_holiday", "not a supported", holiday_name="x", country="ZZ")


def test_seconds_to_hours_minutes_seconds(sandbox: Sandbox) -> None:
    offset = int(sandbox.world.clock.utcoffset().total_seconds())
    assert sandbox.ok("seconds_to_hours_minutes_seconds", seconds=3723 - offset) == {
        "hour": 1,
        "minute": 2,
        "second": 3,
    }
    assert sandbox.ok("seconds_to_hours_minutes_seconds", seconds=86400 + 60 - offset) == {
        "hour": 0,
        "minute": 1,
        "second": 0,
    }
    sandbox.fails("seconds_to_hours_minutes_seconds", "out of range", seconds=1e20)
