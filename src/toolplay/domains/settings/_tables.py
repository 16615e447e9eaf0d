"""The device settings table: one row of switches and the device's coordinates."""

from toolplay.world import TableSchema

SETTINGS = TableSchema(
    "settings",
    ("cellular", "wifi", "location_service", "low_battery_mode", "latitude", "longitude"),
)

DEFAULT_SETTINGS = {
    "cellular": True,
    "wifi": True,
    "location_service": True,
    "low_battery_mode": False,
    "latitude": 37.3349,
    "longitude": -122.009,
}
"""The device as a scenario gets it unless it says otherwise."""
