"""`trajectory_json` equals `Trajectory.model_dump(mode="json")`, whatever the exchanges hold."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from support import load_suite, run_on_endpoint
from toolplay.messages import Message, ModelExchange, Trajectory
from toolplay.runs._dump import trajectory_json
from toolplay.runs._select import select_scenarios
from toolplay.store import RunStore
from toolplay.testing import ChatServer, ReferenceResponder

_leaf = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()  # NaN and infinities included
    | st.text(max_size=5)
    | st.datetimes(timezones=st.just(dt.UTC))
)
_body = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        | st.dictionaries(st.integers(0, 3), inner, max_size=2)
    ),
    max_leaves=8,
)
_bodies = st.none() | st.dictionaries(st.sampled_from(["model", "tools", "messages"]), _body)


def same(trajectory: Trajectory) -> None:
    expected = trajectory.model_dump(mode="json")
    got = trajectory_json(trajectory)
    assert json.dumps(got) == json.dumps(expected)  # NaN compares unequal: compare the text
    assert repr(got) == repr(expected)  # and the types (1 stays an int, [] a list)


@settings(max_examples=150, deadline=None)
@given(bodies=st.lists(st.tuples(_bodies, _bodies), max_size=3), shared=_bodies)
def test_any_exchange_bodies(
    bodies: list[tuple[dict[str, Any] | None, dict[str, Any] | None]],
    shared: dict[str, Any] | None,
) -> None:
    messages = [
        Message(index=0, sender="user", recipient="assistant", content="hi"),
        *(
            Message(
                index=n + 1,
                sender="assistant",
                recipient="user",
                content="x",
                exchange=ModelExchange(request=request, response=response, previous=n, prefix=1),
            )
            for n, (request, response) in enumerate(bodies)
        ),
        # the same body object in two messages, as a conversation's tool list is
        Message(
            index=9, sender="assistant", recipient="user", exchange=ModelExchange(request=shared)
        ),
        Message(
            index=10, sender="assistant", recipient="user", exchange=ModelExchange(request=shared)
        ),
    ]
    same(Trajectory(scenario_id="s", messages=messages))


def test_the_trajectories_of_a_run(tmp_path: Path) -> None:
    scenarios = select_scenarios(load_suite("sandbox"), 12, [])
    with ChatServer(ReferenceResponder(scenarios)) as server:
        code, output, _ = run_on_endpoint(
            server.base_url, tmp_path / "run", "--suite", "sandbox", "--limit", "12"
        )
    assert code == 0, output
    store = RunStore.in_dir(tmp_path / "run")
    try:
        trajectories = [Trajectory.model_validate(r.trajectory) for r in store.results()]
    finally:
        store.close()
    assert sum(m.exchange is not None for t in trajectories for m in t.messages) > 12
    for trajectory in trajectories:
        same(trajectory)
