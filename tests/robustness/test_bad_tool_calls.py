"""Thousands of random and hostile tool calls: never a crash, always a clear error, and a
failed call never changes the world. Covers every registered domain."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolplay.domains import builtin_domains
from toolplay.messages import ToolCall
from toolplay.tools import build_registry

REGISTRY = build_registry(builtin_domains())
NAMES = REGISTRY.names()
CLOCK = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)

HOSTILE = [
    "<script>alert(1)</script>",
    "'; DROP TABLE contacts; --",
    "__import__('os').system('id')",
    "{{7*7}}",
    "${jndi:ldap://x}",
    "\x00\x01\x02",
    "../../etc/passwd",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ☃",
    "eval('1+1')",
    "A" * 5000,
    "",
    " ",
    "null",
    "NaN",
    "-1e309",
    "\u202e reversed",
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=40)
    | st.sampled_from(HOSTILE),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def tool_calls(draw: st.DrawFn) -> ToolCall:
    name = draw(st.sampled_from(NAMES) | st.text(max_size=30) | st.sampled_from(HOSTILE))
    known = REGISTRY.tools.get(name)
    params = list(known.arguments.model_fields) if known else []
    kind = draw(st.sampled_from(["fields", "fields", "raw", "json"]))
    if kind == "raw":
        text = draw(st.text(max_size=200) | st.sampled_from(HOSTILE + ["{", "[" * 3000, "{}" * 3]))
    elif kind == "json":
        text = json.dumps(draw(json_values))
    else:
        arguments: dict[str, Any] = {}
        for param in params:
            if draw(st.booleans()):
                arguments[param] = draw(json_values)
        if draw(st.booleans()):
            arguments[draw(st.text(min_size=1, max_size=10))] = draw(json_values)
        text = json.dumps(arguments)
    return ToolCall(id="c", name=name, arguments=text)


def fresh_world():  # type: ignore[no-untyped-def]
    return REGISTRY.new_world({}, clock=CLOCK, session={"username": "tester"}, seed=1)


@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(tool_calls(), min_size=1, max_size=3))
def test_random_calls_never_crash_and_failures_change_nothing(calls: list[ToolCall]) -> None:
    world = fresh_world()
    for index, call in enumerate(calls):
        before, changes = world.state().digest(), len(world.changes)
        world.index = index
        outcome = REGISTRY.execute(world, call)  # a ToolCrash here is a harness bug
        if outcome.ok:
            json.dumps(outcome.result)
            continue
        assert outcome.error and outcome.error.strip()
        assert outcome.error_type is not None
        assert world.state().digest() == before
        assert len(world.changes) == changes


@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(NAMES), st.integers(1, 3))
def test_huge_and_deep_arguments_are_refused_cleanly(name: str, scale: int) -> None:
    world = fresh_world()
    for text in (
        "[" * (40_000 * scale),
        json.dumps({"x": "y" * (60_000 * scale)}),
        '{"a":' * 2000 + "1" + "}" * 2000,
    ):
        outcome = REGISTRY.execute(world, ToolCall(id="c", name=name, arguments=text))
        assert not outcome.ok and outcome.error_type in ("malformed_arguments", "invalid_arguments")
    assert world.changes == []


def test_no_model_output_is_ever_evaluated_as_code() -> None:
    src = Path(__file__).resolve().parents[2] / "src" / "toolplay"
    pattern = re.compile(
        r"(?<![\w.])(eval|exec)\s*\(|pickle\.loads|shell=True|yaml\.load\((?!.*(?i:safe))"
    )
    offenders = [
        f"{p}:{n}"
        for p in src.rglob("*.py")
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not offenders, offenders
