"""Tool registry: schemas from signatures and docstrings, validation errors, safe execution."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Literal

import pytest

from toolplay.messages import ToolCall
from toolplay.tools import Domain, NotFoundError, RegistryError, ToolCrash, build_registry, tool
from toolplay.world import (
    TableSchema,
    World,
)

ITEMS = TableSchema("items", ("item_id", "name", "count"), key="item_id")


@tool(kind="action", reads={"items"}, writes={"items"})
def add_item(
    world: World,
    name: str,
    count: int = 1,
    colour: Literal["red", "green"] | None = None,
    tags: list[str] | None = None,
) -> str:
    """Add an item to the shelf.

    A longer explanation for the model.

    Args:
        name: What the item is called.
        count: How many to add.
        colour: Optional colour.
        tags: Free-form labels.
    """
    item_id = f"i{len(world.rows('items'))}"
    world.insert("items", {"item_id": item_id, "name": name, "count": count})
    return item_id


@tool(kind="action", reads={"items"}, writes={"items"})
def remove_item(world: World, item_id: str) -> None:
    """Remove an item.

    Args:
        item_id: The item to remove.
    """
    removed = world.delete("items", {"item_id": item_id})
    if not removed:
        raise NotFoundError(f"no item {item_id!r}")


@tool(kind="action", writes={"items"})
def break_halfway(world: World, name: str) -> None:
    """Insert a row, then fail with a harness bug.

    Args:
        name: Item name.
    """
    world.insert("items", {"item_id": "x", "name": name, "count": 0})
    raise ZeroDivisionError("bug")


@tool(kind="read", reads={"items", "session"}, requires_session=True)
def whoami(world: World) -> str:
    """Name of the logged-in user."""
    return str(world.session["username"])


DOMAIN = Domain("shelf", {"items": ITEMS}, [add_item, remove_item, break_halfway, whoami])


@pytest.fixture
def registry():  # type: ignore[no-untyped-def]
    return build_registry([DOMAIN])


def world(session: dict | None = None) -> World:
    return World({"items": ITEMS}, clock=datetime(2024, 1, 1, tzinfo=UTC), session=session)


def call(name: str, arguments: str | dict) -> ToolCall:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ToolCall(id="c1", name=name, arguments=text)


def test_schema_has_types_enums_optionals_and_descriptions(registry) -> None:  # type: ignore[no-untyped-def]
    schema = registry["add_item"].schema
    assert schema["type"] == "function"
    fn = schema["function"]
    assert fn["name"] == "add_item"
    assert fn["description"] == "Add an item to the shelf.\n\nA longer explanation for the model."
    params = fn["parameters"]
    assert params["required"] == ["name"]
    assert params["additionalProperties"] is False
    props = params["properties"]
    assert props["name"] == {"type": "string", "description": "What the item is called."}
    assert props["count"] == {"type": "integer", "default": 1, "description": "How many to add."}
    assert props["colour"]["enum"] == ["red", "green"]
    assert props["tags"]["type"] == "array" and props["tags"]["items"] == {"type": "string"}
    assert "world" not in props
    assert "title" not in json.dumps(schema)


def test_kind_and_tables_are_recorded(registry) -> None:  # type: ignore[no-untyped-def]
    assert registry["add_item"].kind == "action"
    assert registry["whoami"].kind == "read"
    assert registry["add_item"].meta.writes == {"items"}


@pytest.mark.parametrize(
    ("name", "arguments", "error_type", "fragment"),
    [
        ("nope", "{}", "unknown_tool", "Unknown tool 'nope'. Available tools: add_item"),
        ("add_item", "{", "malformed_arguments", "not valid JSON"),
        ("add_item", "[1, 2]", "malformed_arguments", "must be a JSON object, got list"),
        ("add_item", "{}", "invalid_arguments", "missing required argument 'name'"),
        ("add_item", {"name": "a", "size": 3}, "invalid_arguments", "unexpected argument 'size'"),
        (
            "add_item",
            {"name": "a", "count": "3"},
            "invalid_arguments",
            "argument 'count' must be of type integer, got string",
        ),
        (
            "add_item",
            {"name": "a", "colour": "blue"},
            "invalid_arguments",
            'argument \'colour\' must be one of "red", "green"',
        ),
        (
            "add_item",
            {"name": "a", "tags": "x"},
            "invalid_arguments",
            "argument 'tags' must be of type array of string",
        ),
        ("whoami", {}, "not_logged_in", "no user is logged in"),
        ("remove_item", {"item_id": "zz"}, "tool_error", "no item 'zz'"),
        ("add_item", "x" * 200_000, "malformed_arguments", "the limit is"),
        ("add_item", "[" * 100_001, "malformed_arguments", "the limit is"),
        ("add_item", "[" * 5_000 + "]" * 5_000, "malformed_arguments", "nested too deeply"),
    ],
)
def test_bad_calls_become_clear_errors_and_change_nothing(  # type: ignore[no-untyped-def]
    registry, name, arguments, error_type, fragment
) -> None:
    w = world()
    before = w.state().digest()
    outcome = registry.execute(w, call(name, arguments))
    assert not outcome.ok
    assert outcome.error_type == error_type
    assert fragment in (outcome.error or "")
    assert w.state().digest() == before
    assert w.changes == []


def test_successful_call_returns_json_result(registry) -> None:  # type: ignore[no-untyped-def]
    w = world(session={"username": "ann"})
    assert registry.execute(w, call("add_item", {"name": "pen"})).result == "i0"
    assert registry.execute(w, call("whoami", "")).result == "ann"
    assert [r["name"] for r in w.rows("items")] == ["pen"]


def test_harness_bug_in_tool_rolls_back_and_raises_crash(registry) -> None:  # type: ignore[no-untyped-def]
    w = world()
    with pytest.raises(ToolCrash, match="ZeroDivisionError"):
        registry.execute(w, call("break_halfway", {"name": "a"}))
    assert w.rows("items") == ()
    assert w.changes == []


def test_registry_build_refuses_unusable_tools() -> None:
    def undocumented(world: World, x: int) -> None:
        """Does things.

        Args:
            x: a number.
        """

    @tool(kind="read")
    def no_param_doc(world: World, x: int) -> None:
        """Does things."""

    @tool(kind="read")
    def untyped(world, x):  # type: ignore[no-untyped-def]
        """Does things.

        Args:
            x: a number.
        """

    @tool(kind="read", reads={"ghost"})
    def ghost(world: World) -> None:
        """Reads a table nobody declared."""

    for function, message in [
        (undocumented, "not a function decorated"),
        (no_param_doc, "no description"),
        (untyped, "no type hint"),
        (ghost, "undeclared table"),
    ]:
        with pytest.raises(RegistryError, match=message):
            build_registry([Domain("d", {"items": ITEMS}, [function])])


def test_select_restricts_and_rejects_unknown(registry) -> None:  # type: ignore[no-untyped-def]
    picked = registry.select(["add_item", "whoami"], deny=["whoami"])
    assert picked.names() == ["add_item"]
    with pytest.raises(RegistryError, match="unknown tool"):
        registry.select(["missing"])


@pytest.mark.parametrize(
    ("name", "arguments", "code", "fields"),
    [
        ("nope", {}, "unknown_tool", {"name": "nope"}),
        (
            "add_item",
            '{"name": ',
            "exception",
            {"line": "json.decoder.JSONDecodeError: Expecting value: line 1 column 10 (char 9)"},
        ),
        ("add_item", "[1]", "not_a_mapping", {"type_name": "list"}),
        ("add_item", "null", "not_a_mapping", {"type_name": "NoneType"}),
        # Python's binding order: the first missing parameter, else the first unexpected
        # one as given, else the first mistyped one in signature order
        ("add_item", {"zzz": 1, "count": "x"}, "missing_argument", {"param": "name"}),
        (
            "add_item",
            {"name": "a", "zzz": 1, "aaa": 2, "count": "x"},
            "unexpected_argument",
            {"param": "zzz"},
        ),
        (
            "add_item",
            {"count": "x", "name": 5},
            "wrong_type",
            {"param": "name", "value_type": "<class 'int'>"},
        ),
        ("remove_item", {"item_id": "i9"}, None, {}),  # a refusal without a code
    ],
)
def test_a_failure_names_its_condition(  # type: ignore[no-untyped-def]
    registry, name: str, arguments: str | dict, code: str | None, fields: dict[str, str]
) -> None:
    outcome = registry.execute(world(), call(name, arguments))
    assert outcome.error is not None
    assert (outcome.code, dict(outcome.fields)) == (code, fields)


def test_a_tool_error_carries_its_code_and_a_librarys_exception_line() -> None:
    from toolplay.tools import EXCEPTION, InvalidArgumentError, exception_line

    error = InvalidArgumentError("nope", code="shelf/full", fields={"size": "3"})
    assert (str(error), error.code, error.fields) == ("nope", "shelf/full", {"size": "3"})
    try:
        int("x")
    except ValueError as exc:
        wrapped = InvalidArgumentError.of("not a number", exc)
    assert wrapped.code == EXCEPTION
    assert wrapped.fields == {"line": "ValueError: invalid literal for int() with base 10: 'x'"}
    assert exception_line(KeyError("a\nb")) == "KeyError: 'a\\nb'"
    assert exception_line(ValueError("first\nsecond")) == "second"
