"""The simulated online services behind ToolSandbox's RapidAPI tools, and the tools reading them.

What must agree with the reference is checked against `rapidapi.json`, exported from the
reference's own tools (their requests, the fields a place search drops, the weather renaming
table, the currency codes they accept); the data is checked for the places the ToolSandbox
scenarios name; the services are deterministic and answer a bad or unknown query the way a web
service does (no result), which the tools turn into the reference's "not found".
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pytest

from toolplay.domains import services
from toolplay.domains.places import _tools as places
from toolplay.domains.services import _rapidapi
from toolplay.domains.services._data import gazetteer
from toolplay.domains.weather import _tools as weather
from toolplay.methods.toolsandbox._suite import FOLDER

if TYPE_CHECKING:
    from conftest import Sandbox

REFERENCE = json.loads((FOLDER / "rapidapi.json").read_text(encoding="utf-8"))
NOW = datetime(2024, 8, 14, 10, 0, tzinfo=UTC)
CALLS = {
    "search_lat_lon": {"latitude": 37.334606, "longitude": -122.009102},
    "search_location_around_lat_lon": {"location": "Apple Park"},
    "search_weather_around_lat_lon": {"days": 1},
    "search_stock": {"query": "Apple"},
    "convert_currency": {"amount": 2048, "from_currency_code": "usd", "to_currency_code": "CNY"},
}


def test_the_tools_send_the_reference_requests(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, list[str]]] = []

    def recording(url: str, params: dict[str, Any], now: datetime) -> dict[str, Any]:
        seen.append((url, sorted(params)))
        return services.request(url, params, now)

    for module in ("places", "weather", "stocks", "mathutil"):
        monkeypatch.setattr(f"toolplay.domains.{module}._tools.request", recording)
    for name, arguments in CALLS.items():
        sandbox.ok(name, **arguments)
        request = REFERENCE["requests"][name]
        assert seen.pop() == (request["url"], request["params"]), name


def test_the_tools_read_answers_as_the_reference_does() -> None:
    assert list(places.DROPPED) == REFERENCE["place_fields_dropped"]
    assert [[k, v] for k, v in weather.RENAMED.items()] == REFERENCE["weather_renamed"]
    assert REFERENCE["weather_added"] == dict(weather.UNITS)
    assert sorted(services.known_currencies()) == REFERENCE["currency_codes"]


@pytest.mark.parametrize(
    ("query", "point", "tolerance"),
    [
        ("Whole Foods on Stevens Creek", (37.323498, -122.039665), 0.001),
        ("Whole Foods McKinley Ave", (37.3738083, -122.0314225), 0.001),
        ("Golden Gate Bridge", (37.8199, -122.4786), 0.01),
        ("Grand Canyon", (36.23686, -112.19147), 0.5),
    ],
)
def test_the_places_the_scenarios_name_are_where_their_milestones_expect(
    sandbox: Sandbox, query: str, point: tuple[float, float], tolerance: float
) -> None:
    first = sandbox.ok("search_location_around_lat_lon", location=query)[0]
    assert abs(first["latitude"] - point[0]) <= tolerance
    assert abs(first["longitude"] - point[1]) <= tolerance


def test_scenario_facts(sandbox: Sandbox) -> None:
    park = sandbox.ok("search_location_around_lat_lon", location="Apple Park")[0]
    assert park["name"] == "Apple Park" and park["phone_number"] == "+14089961010"
    both = sandbox.ok("search_location_around_lat_lon", location="Whole Foods")
    assert [p["full_address"].split(", ")[1] for p in both] == ["Cupertino", "Sunnyvale"]
    here = sandbox.ok("search_lat_lon", latitude=37.334606, longitude=-122.009102)
    assert "Cupertino" in here and "Apple Park" in here
    assert sandbox.ok("search_stock", query="Apple")["symbol"] == "AAPL"


def test_the_gazetteer_holds_a_few_hundred_places_at_distinct_names_per_city() -> None:
    places_ = gazetteer()
    businesses = [p for p in places_ if p.kind not in ("city", "landmark")]
    assert len(businesses) >= 300
    assert len({p.kind for p in businesses}) >= 10
    keys = [(p.name, p.full_address) for p in places_]
    assert len(keys) == len(set(keys))
    for place in places_:
        assert -90 <= place.latitude <= 90 and -180 <= place.longitude <= 180
        assert place.city["tz"]


def test_answers_are_deterministic_and_copies() -> None:
    params = {"query": "coffee", "lat": 37.77, "lng": -122.42, "limit": 4}
    first = services.request(services.MAPS, params, NOW)
    first["data"][0]["name"] = "changed"
    assert services.request(services.MAPS, params, NOW)["data"][0]["name"] != "changed"
    forecast = {"q": "47.6, -122.3", "days": 3}
    assert services.request(services.WEATHER, forecast, NOW) == services.request(
        services.WEATHER, forecast, NOW
    )


def test_query_strings_read_as_values() -> None:
    """Over HTTP every parameter is text; the answer is the same."""
    for url, params in (
        (services.MAPS, {"query": "pharmacy", "lat": 37.3349, "lng": -122.009, "limit": 4}),
        (services.WEATHER, {"q": "37.3349, -122.009", "days": 2}),
        (services.CURRENCY, {"from": "USD", "to": "EUR", "amount": 10}),
    ):
        text = {k: str(v) for k, v in params.items()}
        assert services.request(url, text, NOW) == services.request(url, params, NOW)


def test_a_bad_query_gets_no_result_and_an_unknown_url_is_a_bug() -> None:
    assert services.request(services.MAPS, {"query": "x", "lat": "north"}, NOW)["data"] is None
    assert services.request(services.GEOCODING, {"location": "here"}, NOW) == {"results": []}
    assert "error" in services.request(services.WEATHER, {"q": "nowhere"}, NOW)
    assert "error" in services.request(services.WEATHER, {"q": "0, -140", "days": 1}, NOW)
    refused = services.request(services.CURRENCY, {"from": "USD", "to": "ZZZ", "amount": 1}, NOW)
    assert refused["success"] is False and "result" not in refused
    with pytest.raises(ValueError, match="no simulated service"):
        _rapidapi.request("https://example.com/api", {}, NOW)


def test_weather_follows_the_place_and_its_local_time() -> None:
    tokyo = services.request(services.WEATHER, {"q": "35.68, 139.65", "days": 2}, NOW)
    assert tokyo["location"]["name"] == "Tokyo"
    assert tokyo["location"]["localtime"] == "2024-08-14 19:00"  # UTC+9
    assert [d["date"] for d in tokyo["forecast"]["forecastday"]] == ["2024-08-14", "2024-08-15"]
    for day in tokyo["forecast"]["forecastday"]:
        values = day["day"]
        assert values["mintemp_c"] <= values["avgtemp_c"] <= values["maxtemp_c"]
        assert values["maxtemp_f"] == round(values["maxtemp_c"] * 9 / 5 + 32, 1)
    today = tokyo["forecast"]["forecastday"][0]["day"]
    assert today["mintemp_c"] <= tokyo["current"]["temp_c"] <= today["maxtemp_c"]
    far = services.request(services.WEATHER, {"q": "37.33, -122.03", "days": 30}, NOW)
    assert len(far["forecast"]["forecastday"]) == 14


def test_the_weather_tool_flattens_and_renames_in_the_reference_order(sandbox: Sandbox) -> None:
    today = sandbox.ok("search_weather_around_lat_lon")
    keys = list(today)
    renamed = [name for _, name in weather.RENAMED.items() if name is not None]
    assert keys[-len(renamed) :] == renamed  # renamed fields move to the end, in table order
    assert not {key for key, name in weather.RENAMED.items()} & set(today)
    assert {"sunrise", "moon_phase", "tz_id", "temperature_unit", "is_day"} <= set(today)
    tomorrow = sandbox.ok("search_weather_around_lat_lon", days=1)
    assert "current_temperature" not in tomorrow and "max_temperature" in tomorrow
