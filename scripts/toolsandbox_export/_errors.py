"""The reference's error texts as data: fixed texts and templates, derived from probe texts.

Input: `_probes.tool_probes()` (each text produced by the reference's own execution environment
for a given world and call). Output, for `errors.json`:

- `templates`: families of texts with variable parts. A template is DERIVED from the text of a
  family's first probe by replacing the variable substrings (the computed `fields`) with
  `{field}` placeholders (the fixed words are the reference's output, never typed), then
  checked by filling it with the fields of every probe of its family and comparing with what
  the reference produced; the export fails if one does not reproduce.
- `fixed`: texts with no variable part, keyed by `tool/condition` (the codes toolplay's tools
  raise).
- `volatile`: texts holding a memory address (normalised to `_probes.ADDRESS`).

Field values are computed from the probe's call and the reference's signatures (the first
missing required parameter in signature order, `str(type(value))`, the annotation's `str()`):
what toolplay computes from a call and the exported tool table.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any


def _tool(name: str) -> Any:
    from tool_sandbox.common.execution_context import ExecutionContext

    return ExecutionContext().name_to_tool[name]


def _args(probe: dict[str, Any]) -> Any:
    import json

    a = probe["arguments"]
    return json.loads(a) if isinstance(a, str) else a


def _first_missing(probe: dict[str, Any]) -> dict[str, str]:
    given = _args(probe)
    for p in inspect.signature(_tool(probe["tool"])).parameters.values():
        if p.default is inspect.Parameter.empty and p.name not in given:
            return {"param_repr": repr(p.name)}
    raise ValueError("nothing missing")


def _first_unexpected(probe: dict[str, Any]) -> dict[str, str]:
    names = set(inspect.signature(_tool(probe["tool"])).parameters)
    for k in _args(probe):
        if k not in names:
            return {"param_repr": repr(k)}
    raise ValueError("nothing unexpected")


def _wrong_type(param: str) -> Callable[[dict[str, Any]], dict[str, str]]:
    def fields(probe: dict[str, Any]) -> dict[str, str]:
        value = _args(probe)[param]
        annotation = inspect.signature(_tool(probe["tool"])).parameters[param].annotation
        if probe["tool"] == "set_location_service_status":  # checked in set_boolean_settings
            annotation = bool
        return {
            "param_repr": repr(param),
            "value_type": str(type(value)),
            "expected": str(annotation),
        }

    return fields


def _range(param: str, bound: str) -> Callable[[dict[str, Any]], dict[str, str]]:
    def fields(probe: dict[str, Any]) -> dict[str, str]:
        return {"param_repr": repr(param), "bound": bound}

    return fields


def _value(param: str, key: str = "value_repr") -> Callable[[dict[str, Any]], dict[str, str]]:
    def fields(probe: dict[str, Any]) -> dict[str, str]:
        return {key: repr(_args(probe)[param])}

    return fields


def _mapping(probe: dict[str, Any]) -> dict[str, str]:
    tool = _tool(probe["tool"])
    return {
        "qualified_name": f"{tool.__module__}.{tool.__qualname__}",
        "type_name": type(_args(probe)).__name__,
    }


FAMILIES: list[dict[str, Any]] = [
    {
        "family": "missing_argument",
        "where": "inspect.Signature.bind in register_as_tool's decorator (common/utils.py): the "
        "FIRST missing required parameter in signature order, before any unexpected argument",
        "probes": {
            "generic/missing_argument": _first_missing,
            "generic/missing_two_arguments": _first_missing,
            "generic/unexpected_argument_and_missing": _first_missing,
            "utilities/datetime_info_to_timestamp_three_args": _first_missing,
        },
    },
    {
        "family": "unexpected_argument",
        "where": "inspect.Signature.bind, once every required parameter is present",
        "probes": {
            "generic/unexpected_argument": _first_unexpected,
            "generic/non_identifier_key": _first_unexpected,
            "utilities/search_holiday_country": _first_unexpected,
        },
    },
    {
        "family": "wrong_type",
        "where": "common/validators.py validate_type, from @typechecked (every bound argument, "
        "defaults included) or an explicit validate_type call; int is accepted for float, "
        "bool for int and float",
        "probes": {
            "generic/wrong_type_str_for_bool": _wrong_type("on"),
            "generic/wrong_type_float_for_int": _wrong_type("year"),
            "generic/null_for_str": _wrong_type("name"),
            "setting/set_cellular_wrong_type": _wrong_type("on"),
            "setting/set_location_wrong_type": _wrong_type("on"),
            "messaging/search_lowerbound_string": _wrong_type("creation_timestamp_lowerbound"),
            "reminder/add_timestamp_string": _wrong_type("reminder_timestamp"),
            "utilities/shift_timestamp_float_days": _wrong_type("days"),
            "utilities/search_holiday_year_string": _wrong_type("year"),
            "rapid_api/convert_currency_string_amount": _wrong_type("amount"),
        },
    },
    {
        "family": "range_maximum",
        "where": "common/validators.py validate_range (timestamps 315529200.0..2524604400.0, "
        "latitude -90.0..90.0, longitude -180.0..180.0)",
        "probes": {
            "messaging/search_lowerbound_ms": _range(
                "creation_timestamp_lowerbound", "2524604400.0"
            ),
            "reminder/add_timestamp_ms": _range("reminder_timestamp", "2524604400.0"),
            "reminder/add_bad_latitude": _range("latitude", "90.0"),
            "reminder/search_bad_latitude": _range("latitude", "90.0"),
            "utilities/timestamp_to_datetime_info_ms": _range("timestamp", "2524604400.0"),
            "utilities/shift_timestamp_ms": _range("timestamp", "2524604400.0"),
            "utilities/calculate_lat_lon_distance_bad": _range("latitude_0", "90.0"),
            "rapid_api/search_lat_lon_bad_latitude": _range("latitude", "90.0"),
        },
    },
    {
        "family": "range_minimum",
        "where": "common/validators.py validate_range",
        "probes": {
            "messaging/search_lowerbound_small": _range(
                "creation_timestamp_lowerbound", "315529200.0"
            ),
            "reminder/add_timestamp_small": _range("reminder_timestamp", "315529200.0"),
            "reminder/modify_bad_timestamp": _range("reminder_timestamp", "315529200.0"),
            "reminder/add_bad_longitude": _range("longitude", "-180.0"),
        },
    },
    {
        "family": "modify_contact_not_found",
        "where": "tools/contact.py modify_contact (an f-string with `{person_id=}`)",
        "probes": {"contact/modify_not_found": _value("person_id")},
    },
    {
        "family": "modify_reminder_not_found",
        "where": "tools/reminder.py modify_reminder (an f-string with `{reminder_id=}`)",
        "probes": {"reminder/modify_not_found": _value("reminder_id")},
    },
    {
        "family": "not_a_mapping",
        "where": "the generated code `f(**x_parameters)` when the argument JSON is not an object "
        "(CPython's message, the function's module-qualified name)",
        "probes": {
            "generic/not_an_object_list": _mapping,
            "generic/not_an_object_null": _mapping,
        },
    },
    {
        "family": "currency_unknown",
        "where": "common/validators.py validate_currency_code (before wifi and the network)",
        "probes": {
            "rapid_api/convert_currency_bad_code": lambda p: {
                "code": _args(p)["from_currency_code"]
            }
        },
    },
    {
        "family": "weather_negative_days",
        "where": "tools/rapid_api_search_tools.py search_weather_around_lat_lon (`{days=}`)",
        "probes": {"rapid_api/search_weather_negative_days": _value("days", "days_repr")},
    },
]
"""Families of parameterised texts: how each probe's fields are computed."""

FIXED = {
    "set_cellular_service_status/already_on": "setting/set_cellular_on_already_on",
    "set_cellular_service_status/already_off": "setting/set_cellular_off_already_off",
    "set_cellular_service_status/low_battery": "setting/set_cellular_on_low_battery",
    "set_wifi_status/already_on": "setting/set_wifi_on_already_on",
    "set_wifi_status/already_off": "setting/set_wifi_off_already_off",
    "set_wifi_status/low_battery": "setting/set_wifi_on_low_battery",
    "set_location_service_status/already_on": "setting/set_location_on_already_on",
    "set_location_service_status/already_off": "setting/set_location_off_already_off",
    "set_location_service_status/low_battery": "setting/set_location_on_low_battery",
    "set_low_battery_mode_status/already_on": "setting/set_low_battery_on_already_on",
    "set_low_battery_mode_status/already_off": "setting/set_low_battery_off_already_off",
    "location_service_off": "setting/get_current_location_off",
    "second_self": "contact/add_self_duplicate",
    "modify_contact/no_update": "contact/modify_no_update",
    "search_contacts/no_criteria": "contact/search_no_criteria",
    "cellular_off": "messaging/send_cellular_off",
    "no_single_self": "messaging/send_no_self",
    "search_messages/no_criteria": "messaging/search_no_criteria",
    "modify_reminder/no_update": "reminder/modify_no_update",
    "search_reminder/no_criteria": "reminder/search_no_criteria",
    "wifi_off": "utilities/search_holiday_wifi_off",
    "rapid_api_key": "rapid_api/search_lat_lon_no_key",
    "one_coordinate": "rapid_api/search_location_one_coordinate",
}
"""Code -> the probe whose text is the code's fixed text. The code is `tool/condition`, or
the condition alone where several tools raise the same text (`wifi_off`, `second_self`)."""

VOLATILE = {
    "remove_contact/not_found": "contact/remove_not_found",
    "remove_reminder/not_found": "reminder/remove_not_found",
}
"""Texts holding a polars predicate's memory address (normalised, `_probes.ADDRESS`)."""

SAME_TEXT = {
    "second_self": ["contact/modify_self_duplicate"],
    "wifi_off": ["rapid_api/search_lat_lon_wifi_off", "rapid_api/convert_currency_wifi_off"],
    "location_service_off": ["rapid_api/search_location_location_off"],
}
"""Further probes that must show a fixed code's text (checked)."""


def _derive(text: str, fields: dict[str, str]) -> str | None:
    template = text.replace("{", "{{").replace("}", "}}")
    for name, value in sorted(fields.items(), key=lambda kv: -len(kv[1])):
        escaped = value.replace("{", "{{").replace("}", "}}")
        if escaped not in template:
            return None
        template = template.replace(escaped, "{" + name + "}", 1)
    return template


def unknown_tool_template() -> str:
    """The reference's text for a tool name that was not offered (`message_conversion.py`):
    it raises this in the agent role and the scenario ends; toolplay shows it to the model.
    """
    import traceback

    from openai.types.chat.chat_completion_message_tool_call import (
        ChatCompletionMessageToolCall,
        Function,
    )
    from tool_sandbox.common.message_conversion import openai_tool_call_to_python_code

    name, offered = "NAME_X", "OFFERED_Y"
    call = ChatCompletionMessageToolCall(
        id="call_x", type="function", function=Function(name=name, arguments="{}")
    )
    try:
        openai_tool_call_to_python_code(call, {offered}, None)
    except KeyError as exc:
        line = traceback.format_exception_only(type(exc), exc)[-1].strip()
    else:
        raise AssertionError("an unknown tool name was accepted")
    template = _derive(line, {"name_repr": repr(name), "names": "{" + repr(offered) + "}"})
    if template is None:
        raise AssertionError(f"cannot derive the unknown-tool template from {line!r}")
    return template


def error_table(probes: list[dict[str, Any]]) -> dict[str, Any]:
    """`errors.json`'s tables (module docstring); fails if a text does not reproduce."""
    by_id = {p["id"]: p for p in probes}
    templates: dict[str, dict[str, Any]] = {}
    for family in FAMILIES:
        ids = list(family["probes"])
        first = by_id[ids[0]]
        template = _derive(first["content"], family["probes"][ids[0]](first))
        for pid in ids:
            fields = family["probes"][pid](by_id[pid])
            if template is None or template.format(**fields) != by_id[pid]["content"]:
                raise AssertionError(f"template {family['family']} does not reproduce {pid}")
        templates[family["family"]] = {
            "template": template,
            "fields": sorted(family["probes"][ids[0]](first)),
            "where": family["where"],
            "probes": ids,
        }
    fixed = {code: by_id[pid]["content"] for code, pid in FIXED.items()}
    for code, pids in SAME_TEXT.items():
        for pid in pids:
            if by_id[pid]["content"] != fixed[code]:
                raise AssertionError(f"{pid} does not show the text of {code}")
    return {
        "rules": {
            "tool_message": "the execution environment's output: stdout of "
            "`print(repr(result))` (right-stripped) or, if the call raised, the LAST line of "
            "the traceback: `<exception type>: <message>` (builtins unqualified, others "
            "module-qualified) (roles/execution_environment.py)",
        },
        "templates": templates,
        "unknown_tool": unknown_tool_template(),
        "fixed": fixed,
        "volatile": {code: by_id[pid]["content"] for code, pid in VOLATILE.items()},
    }
