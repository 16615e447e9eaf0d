"""Device settings tools with ToolSandbox's state dependencies.

Turning cellular, wifi or location service on fails in low-battery mode; turning low-battery
mode on turns all three off (turning it off again leaves them off); reading the current
location needs location service. Setters take `on`, as the reference's do, and refuse to set
a switch to the value it already has (the reference raises there too), except that turning
low-battery mode on leaves the three already-off switches quietly off. Each refusal names its
condition (`<setter>/low_battery`, `<setter>/already_on|off`, `<switch>_off`) for the
reference presentation's texts.

`reads`/`writes` are declared exactly: the runtime orders parallel calls readers-first, so a
setter that only writes (low-battery mode) runs after the calls that depend on it.
"""

from __future__ import annotations

from typing import Any

from toolplay.tools import _validate
from toolplay.tools._decorator import tool
from toolplay.tools._errors import InvalidArgumentError, PreconditionError
from toolplay.world import Row, World


def device(world: World) -> Row:
    """The single settings row (a harness bug if a scenario left it out)."""
    rows = world.rows("settings")
    if len(rows) != 1:
        raise RuntimeError(f"settings table must hold exactly one row, has {len(rows)}")
    return rows[0]


def require_setting(world: World, column: str, label: str) -> None:
    """Refuse when the switch `column` is off; the message names what to turn on.

    The error's code is `<column>_off` (`cellular_off`, `wifi_off`, `location_service_off`).
    """
    if not device(world)[column]:
        raise PreconditionError(
            f"{label} is turned off. Turn it on before retrying.", code=f"{column}_off"
        )


def _change(world: World, values: dict[str, Any]) -> None:
    row = device(world)
    changed = {k: v for k, v in values.items() if row[k] != v}
    if changed:
        world.update("settings", {}, changed)


def _refuse_same(world: World, column: str, label: str, on: bool, setter: str) -> None:
    if bool(device(world)[column]) == on:
        state = "on" if on else "off"
        raise InvalidArgumentError(f"{label} is already {state}.", code=f"{setter}/already_{state}")


def _set_switch(world: World, column: str, label: str, on: bool, setter: str) -> None:
    if on and device(world)["low_battery_mode"]:
        raise PreconditionError(
            f"Cannot turn on {label} while low battery mode is on. Turn off low battery mode "
            "first.",
            code=f"{setter}/low_battery",
        )
    _refuse_same(world, column, label.capitalize(), on, setter)
    _change(world, {column: on})


@tool(kind="read", reads={"settings"})
def get_cellular_service_status(world: World) -> bool:
    """Tell whether cellular service is on."""
    return bool(device(world)["cellular"])


@tool(kind="action", reads={"settings"}, writes={"settings"})
def set_cellular_service_status(world: World, on: bool) -> None:
    """Turn cellular service on or off. It cannot be turned on while low battery mode is on.

    Args:
        on: True to turn cellular service on, False to turn it off.
    """
    _set_switch(world, "cellular", "cellular service", on, "set_cellular_service_status")


@tool(kind="read", reads={"settings"})
def get_wifi_status(world: World) -> bool:
    """Tell whether wifi is on."""
    return bool(device(world)["wifi"])


@tool(kind="action", reads={"settings"}, writes={"settings"})
def set_wifi_status(world: World, on: bool) -> None:
    """Turn wifi on or off. It cannot be turned on while low battery mode is on.

    Args:
        on: True to turn wifi on, False to turn it off.
    """
    _set_switch(world, "wifi", "wifi", on, "set_wifi_status")


@tool(kind="read", reads={"settings"})
def get_location_service_status(world: World) -> bool:
    """Tell whether location service is on."""
    return bool(device(world)["location_service"])


@tool(kind="action", reads={"settings"}, writes={"settings"})
def set_location_service_status(world: World, on: bool) -> None:
    """Turn location service on or off. It cannot be turned on while low battery mode is on.

    Args:
        on: True to turn location service on, False to turn it off.
    """
    _set_switch(world, "location_service", "location service", on, "set_location_service_status")


@tool(kind="read", reads={"settings"})
def get_low_battery_mode_status(world: World) -> bool:
    """Tell whether low battery mode is on."""
    return bool(device(world)["low_battery_mode"])


@tool(kind="action", writes={"settings"})
def set_low_battery_mode_status(world: World, on: bool) -> None:
    """Turn low battery mode on or off. Turning it on also turns off cellular, wifi and location.

    Args:
        on: True to turn low battery mode on, False to turn it off.
    """
    _refuse_same(world, "low_battery_mode", "Low battery mode", on, "set_low_battery_mode_status")
    values: dict[str, Any] = {"low_battery_mode": on}
    if on:
        values.update(cellular=False, wifi=False, location_service=False)
    _change(world, values)


@tool(kind="read", reads={"settings"})
def get_current_location(world: World) -> dict[str, float]:
    """Get the device's current latitude and longitude. Needs location service on."""
    require_setting(world, "location_service", "Location service")
    row = device(world)
    return {"latitude": row["latitude"], "longitude": row["longitude"]}


TOOLS = [
    get_cellular_service_status,
    set_cellular_service_status,
    get_wifi_status,
    set_wifi_status,
    get_location_service_status,
    set_location_service_status,
    get_low_battery_mode_status,
    set_low_battery_mode_status,
    get_current_location,
]


def point_or_current(world: World, lat: float | None, lon: float | None) -> tuple[float, float]:
    """The given coordinates (checked), or the device's location when both are omitted.

    Raises:
        InvalidArgumentError: when only one coordinate is given or one is out of range.
        PreconditionError: when falling back to the device location with location service off.
    """
    point = _validate.coordinates(lat, lon)
    if point is not None:
        return point
    require_setting(world, "location_service", "Location service")
    row = device(world)
    return float(row["latitude"]), float(row["longitude"])
