"""Every rule by which the reference renders what the assistant sees (`_render`)."""

from __future__ import annotations

import json

import pytest

from toolplay.messages import Message, ToolCall
from toolplay.methods.toolsandbox._render import (
    agent_messages,
    error_text,
    result_text,
    shown_arguments,
)
from toolplay.methods.toolsandbox._shown import reference_data
from toolplay.tools import EXCEPTION

DATA = reference_data()


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (
            '{"name":"Stephen Sondheim","phone_number":"+19876543210"}',
            '{"name": "Stephen Sondheim", "phone_number": "+19876543210"}',
        ),
        ('{\n  "b": 1,\n  "a": 2\n}', '{"b": 1, "a": 2}'),  # key order kept, spacing Python's
        ('{"content":"café ✓"}', '{"content": "caf\\u00e9 \\u2713"}'),  # ASCII escapes
        ('{"a":1,"a":2}', '{"a": 2}'),  # the last duplicate key
        (
            '{"a":1E3,"b":1e20,"c":1.5e-7,"d":1711126800}',
            '{"a": 1000.0, "b": 1e+20, "c": 1.5e-07, "d": 1711126800}',
        ),
        ("[1,2]", "[1, 2]"),
        ('{"content": "unterminated', '{"content": "unterminated'),  # not JSON: as written
        ("", ""),
    ],
)
def test_argument_text_is_rerendered(raw: str, shown: str) -> None:
    assert shown_arguments(raw) == shown


def result(value: object) -> Message:
    return Message(
        index=3, sender="environment", recipient="assistant", tool_call_id="c", result=value
    )


def test_results_are_python_literals() -> None:
    assert result_text(result(None)) == "None"
    assert result_text(result(True)) == "True"
    assert result_text(result(1723629600.0)) == "1723629600.0"
    assert result_text(result("0d25dbb9")) == "'0d25dbb9'"
    assert result_text(result({"content": "How's it going", "n": 1})) == (
        "{'content': \"How's it going\", 'n': 1}"
    )


def failure(code: str | None, error: str = "toolplay's words", **fields: str) -> Message:
    return Message(
        index=3,
        sender="environment",
        recipient="assistant",
        tool_call_id="c",
        error=error,
        error_code=code,
        error_fields=fields or None,
    )


def test_errors_are_the_references_texts() -> None:
    assert error_text(failure("cellular_off"), "send_message_with_phone_number", [], DATA) == (
        "ConnectionError: Cellular service is not enabled"
    )
    assert error_text(failure("set_wifi_status/already_on"), "set_wifi_status", [], DATA) == (
        "ValueError: wifi already enabled"
    )
    assert error_text(failure("missing_argument", param="hour"), "x", [], DATA) == (
        "TypeError: missing a required argument: 'hour'"
    )
    wrong = failure("wrong_type", param="on", value_type="<class 'str'>")
    assert error_text(wrong, "set_wifi_status", [], DATA) == (
        "TypeError: Parameter 'on' is of type '<class 'str'>', but expected '<class 'bool'>'."
    )
    mapping = failure("not_a_mapping", type_name="list")
    assert error_text(mapping, "get_wifi_status", [], DATA) == (
        "TypeError: tool_sandbox.tools.setting.get_wifi_status() argument after ** must be a "
        "mapping, not list"
    )
    ranged = failure("range_minimum", param_repr="'timestamp'", bound="315529200.0")
    assert error_text(ranged, "timestamp_to_datetime_info", [], DATA) == (
        "ValueError: Parameter 'timestamp' is smaller than its valid range minimum of 315529200.0."
    )
    line = "pint.errors.UndefinedUnitError: 'florp' is not defined in the unit registry"
    assert error_text(failure(EXCEPTION, line=line), "unit_conversion", [], DATA) == line
    unknown = error_text(
        failure("unknown_tool", name="fly"), None, ["setting_5", "contact_3"], DATA
    )
    assert unknown == (
        "KeyError: \"Agent tool call agent_facing_tool_name='fly' is not a known allowed tool. "
        "Options are available_tool_names={'contact_3', 'setting_5'}\""
    )
    # a condition the reference has no text for keeps toolplay's words
    assert error_text(failure("not_logged_in"), "x", [], DATA) == "Error: toolplay's words"
    assert error_text(failure(None), "x", [], DATA) == "Error: toolplay's words"


def test_the_view_as_the_reference_converts_it() -> None:
    call = ToolCall(id="call_1", name="setting_5", arguments='{"on":true}')
    bus = [
        Message(index=0, sender="system", recipient="assistant", content="Be careful."),
        Message(index=1, sender="user", recipient="assistant", content="Turn on cellular"),
        Message(
            index=2,
            sender="assistant",
            recipient="environment",
            content="On it!",  # text beside calls: never shown again
            tool_calls=(call,),
        ),
        Message(
            index=3,
            sender="environment",
            recipient="assistant",
            tool_call_id="call_1",
            tool_name="set_cellular_service_status",  # the real name; the view shows the used one
            result=None,
        ),
        Message(index=4, sender="assistant", recipient="user", content="Done."),
    ]
    assert agent_messages(bus, DATA, ["setting_5"]) == [
        {"role": "system", "content": "Be careful."},
        {"role": "user", "content": "Turn on cellular"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "call_1",
                    "function": {"arguments": '{"on": true}', "name": "setting_5"},
                    "type": "function",
                }
            ],
        },
        {"tool_call_id": "call_1", "role": "tool", "name": "setting_5", "content": "None"},
        {"role": "assistant", "content": "Done."},
    ]
    # key order is part of the bytes
    assert list(agent_messages(bus, DATA, [])[3]) == ["tool_call_id", "role", "name", "content"]
    assert json.dumps(agent_messages(bus, DATA, [])[2]["tool_calls"][0]).startswith(
        '{"id": "call_1", "function": {"arguments"'
    )
