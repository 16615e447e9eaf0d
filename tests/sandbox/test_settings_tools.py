"""Device settings tools and ToolSandbox's state dependencies, including the nested chain."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Sandbox

SWITCHES = [
    ("cellular", "set_cellular_service_status", "get_cellular_service_status"),
    ("wifi", "set_wifi_status", "get_wifi_status"),
    ("location_service", "set_location_service_status", "get_location_service_status"),
]


@pytest.mark.parametrize(("column", "setter", "getter"), SWITCHES)
def test_switch_off_and_on(sandbox: Sandbox, column: str, setter: str, getter: str) -> None:
    assert sandbox.ok(getter) is True
    sandbox.ok(setter, on=False)
    assert sandbox.ok(getter) is False
    assert sandbox.world.rows("settings")[0][column] is False
    sandbox.ok(setter, on=True)
    assert sandbox.ok(getter) is True


@pytest.mark.parametrize(("column", "setter", "getter"), SWITCHES)
def test_switch_cannot_turn_on_in_low_battery_mode(
    sandbox: Sandbox, column: str, setter: str, getter: str
) -> None:
    sandbox.reset(settings=[sandbox.settings_row(**{column: False}, low_battery_mode=True)])
    sandbox.fails(setter, "low battery mode", on=True)
    sandbox.fails(setter, "already off", on=False)  # the reference refuses a no-op too


@pytest.mark.parametrize("setter", [s for _, s, _ in SWITCHES] + ["set_low_battery_mode_status"])
def test_setters_refuse_bad_arguments(sandbox: Sandbox, setter: str) -> None:
    sandbox.fails(setter, "'on'", on="yes")
    sandbox.fails(setter, "missing required argument")
    sandbox.fails(setter, "unexpected argument", on=True, force=True)


def test_setting_the_current_value_is_refused_and_changes_nothing(sandbox: Sandbox) -> None:
    sandbox.fails("set_wifi_status", "already on", on=True)
    sandbox.fails("set_low_battery_mode_status", "already off", on=False)
    assert sandbox.world.changes == []


def test_low_battery_on_turns_the_three_off_and_off_leaves_them_off(sandbox: Sandbox) -> None:
    sandbox.ok("set_low_battery_mode_status", on=True)
    row = sandbox.world.rows("settings")[0]
    assert (row["cellular"], row["wifi"], row["location_service"]) == (False, False, False)
    assert sandbox.ok("get_low_battery_mode_status") is True
    sandbox.ok("set_low_battery_mode_status", on=False)
    row = sandbox.world.rows("settings")[0]
    assert not row["low_battery_mode"] and not row["cellular"] and not row["wifi"]


def test_nested_chain_low_battery_then_cellular_then_send(sandbox: Sandbox) -> None:
    sandbox.reset(
        settings=[
            sandbox.settings_row(
                cellular=False, wifi=False, location_service=False, low_battery_mode=True
            )
        ]
    )
    sandbox.fails(
        "send_message_with_phone_number", "cellular", phone_number="+14155550142", content="hi"
    )
    sandbox.fails("set_cellular_service_status", "low battery", on=True)
    sandbox.ok("set_low_battery_mode_status", on=False)
    sandbox.ok("set_cellular_service_status", on=True)
    assert isinstance(
        sandbox.ok("send_message_with_phone_number", phone_number="+14155550142", content="hi"),
        str,
    )


def test_current_location_needs_location_service(sandbox: Sandbox) -> None:
    assert sandbox.ok("get_current_location") == {"latitude": 37.3349, "longitude": -122.009}
    sandbox.ok("set_location_service_status", on=False)
    sandbox.fails("get_current_location", "location service")
    sandbox.fails("get_current_location", "unexpected argument", latitude=1.0)
