"""Request bodies with the tool list encoded once: the bytes of `json.dumps(request)`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import load_suite, run_on_endpoint
from toolplay.clients._body import RequestBodies
from toolplay.runs._select import select_scenarios
from toolplay.testing import ChatServer, ReferenceResponder

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)
_tools = st.lists(st.dictionaries(st.text(max_size=6), _json, max_size=3), max_size=3)
_requests = st.dictionaries(st.sampled_from(["model", "messages", "seed", "x"]), _json, max_size=4)


@settings(max_examples=150, deadline=None)
@given(request=_requests, tools=_tools, position=st.integers(0, 4))
def test_bodies_are_json_dumps_bytes(
    request: dict[str, Any], tools: list[Any], position: int
) -> None:
    items = list(request.items())
    items.insert(min(position, len(items)), ("tools", tools))
    body = dict(items)
    bodies = RequestBodies(size=2)
    expected = json.dumps(body).encode("utf-8")
    assert bodies.encode(body) == expected
    assert bodies.encode(dict(body)) == expected  # the second time from the cache


def test_a_cached_list_is_only_reused_for_the_same_schema_objects() -> None:
    schema = {"type": "function", "function": {"name": "f", "parameters": {}}}
    bodies = RequestBodies(size=1)
    first = bodies.encode({"model": "m", "tools": [schema]})
    equal_but_other = json.loads(json.dumps(schema))
    equal_but_other["function"]["name"] = "g"
    assert (
        bodies.encode({"model": "m", "tools": [equal_but_other]})
        == json.dumps({"model": "m", "tools": [equal_but_other]}).encode()
    )
    assert bodies.encode({"model": "m", "tools": [schema]}) == first  # evicted, encoded again
    assert (
        bodies.encode({1: "a", "tools": [schema]})
        == json.dumps({1: "a", "tools": [schema]}).encode()
    )


def test_every_request_of_a_run_is_sent_as_json_dumps_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenarios = select_scenarios(load_suite("sandbox"), 6, [])
    args = ("--suite", "sandbox", "--limit", "6")
    with ChatServer(ReferenceResponder(scenarios)) as server:
        code, output, cached = run_on_endpoint(server.base_url, tmp_path / "cached", *args)
        assert code == 0, output
        requests = [r for r in server.requests if isinstance(r.body, dict)]
        assert len(requests) > 6 and all("tools" in r.body for r in requests)
        assert all(r.raw == json.dumps(r.body).encode("utf-8") for r in requests)
        monkeypatch.setattr(
            RequestBodies, "encode", lambda self, request: json.dumps(request).encode("utf-8")
        )
        code, output, plain = run_on_endpoint(server.base_url, tmp_path / "plain", *args)
        assert code == 0, output
    # the same bytes sent (in whatever order the concurrent conversations sent them)
    assert sorted(r.raw for r in server.requests[len(requests) :]) == sorted(
        r.raw for r in requests
    )
    assert cached == plain
