"""The reference's argument binding, replayed before a call runs (its order, its acceptance)."""

from __future__ import annotations

import json

import pytest

from toolplay.messages import ToolCall
from toolplay.methods.toolsandbox._binding import accepted_types, check_call, type_accepted
from toolplay.methods.toolsandbox._shown import reference_data

DATA = reference_data()


def refusal(tool: str, **arguments: object) -> tuple[str | None, dict[str, str]] | None:
    outcome = check_call(DATA, tool, ToolCall(id="c", name=tool, arguments=json.dumps(arguments)))
    return None if outcome is None else (outcome.code, dict(outcome.fields))


@pytest.mark.parametrize(
    ("annotation", "types"),
    [
        ("<class 'str'>", {str}),
        ("typing.Optional[float]", {float, type(None)}),
        ("typing.Union[float, int]", {float, int}),
        (
            "typing.Union[bool, tool_sandbox.common.utils.NotGiven]",
            {bool, "tool_sandbox.common.utils.NotGiven"},
        ),
        (
            "typing.Union[float, NoneType, tool_sandbox.common.utils.NotGiven]",
            {float, type(None), "tool_sandbox.common.utils.NotGiven"},
        ),
    ],
)
def test_annotation_texts_name_their_types(annotation: str, types: set[object]) -> None:
    assert accepted_types(annotation) == types


def test_every_exported_annotation_is_understood() -> None:
    for facts in DATA.tools.values():
        for parameter in facts.parameters:
            assert accepted_types(parameter.annotation)
    with pytest.raises(ValueError, match="unknown annotation"):
        accepted_types("typing.List[str]")


def test_validate_types_rules() -> None:
    assert type_accepted(3, "<class 'float'>")  # int for float
    assert type_accepted(True, "<class 'int'>") and type_accepted(False, "<class 'float'>")
    assert not type_accepted(1.0, "<class 'int'>")
    assert not type_accepted(None, "typing.Union[str, tool_sandbox.common.utils.NotGiven]")
    assert type_accepted(None, "typing.Optional[str]")
    assert not type_accepted(1, "<class 'bool'>")


def test_missing_comes_first_in_signature_order_then_unexpected_then_types() -> None:
    assert refusal("datetime_info_to_timestamp", year=2024, day=3, bogus=1) == (
        "missing_argument",
        {"param": "month", "param_repr": "'month'"},
    )
    assert refusal("get_wifi_status", zzz=1, aaa=2) == (
        "unexpected_argument",
        {"param": "zzz", "param_repr": "'zzz'"},
    )
    assert refusal("add_reminder", content=5, reminder_timestamp="soon") == (
        "wrong_type",
        {"param": "content", "param_repr": "'content'", "value_type": "<class 'int'>"},
    )


def test_null_is_refused_where_the_reference_annotation_has_no_none() -> None:
    # toolplay's own validation reads null as "not given"; the reference refuses it
    assert refusal("search_messages", content=None) == (
        "wrong_type",
        {"param": "content", "param_repr": "'content'", "value_type": "<class 'NoneType'>"},
    )
    assert refusal("add_contact", name="X", phone_number="+15550001", relationship=None) is None


def test_untyped_search_contacts_reaches_its_libraries() -> None:
    assert refusal("search_contacts", relationship=12345) == (
        "exception",
        {"line": "TypeError: sentence must be a String"},
    )
    assert refusal("search_contacts", phone_number=12345) == (
        "exception",
        {"line": "TypeError: object of type 'int' has no len()"},
    )
    assert refusal("search_contacts", name="Homer") is None


def test_arguments_that_are_no_object_and_unknown_tools_are_left_to_toolplay() -> None:
    assert check_call(DATA, "get_wifi_status", ToolCall(id="c", name="x", arguments="[1]")) is None
    assert check_call(DATA, "get_wifi_status", ToolCall(id="c", name="x", arguments="{")) is None
    assert check_call(DATA, "no_such_tool", ToolCall(id="c", name="x", arguments="{}")) is None
