"""What an online lookup needs of the device: a point to search around, and wifi.

The checks run in the reference's order (its `maybe_get_current_lat_lon`, then its request
function): the coordinates' ranges, then both-or-neither, then, when neither is given, location
service (for the device's own point); wifi is checked by the caller just before the request.
"""

from __future__ import annotations

from toolplay.domains.settings import device, require_setting
from toolplay.tools import _validate
from toolplay.world import World


def lookup_point(
    world: World, latitude: float | None, longitude: float | None
) -> tuple[float, float]:
    """The given point, or the device's when both coordinates are left out.

    Raises:
        InvalidArgumentError: a coordinate out of range, or only one of them given.
        PreconditionError: neither given and location service off.
    """
    if latitude is not None:
        _validate.latitude(latitude)
    if longitude is not None:
        _validate.longitude(longitude)
    point = _validate.coordinates(latitude, longitude)
    if point is not None:
        return point
    require_setting(world, "location_service", "Location service")
    row = device(world)
    return float(row["latitude"]), float(row["longitude"])


def require_online(world: World) -> None:
    """Refuse when wifi is off (the reference's online tools all need it).

    Raises:
        PreconditionError: wifi off.
    """
    require_setting(world, "wifi", "Wifi")
