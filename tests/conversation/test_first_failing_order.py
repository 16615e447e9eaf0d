"""Parallel calls the ToolSandbox reference's way: the first failing order without the factorial.

The reference runs every permutation of a message's calls (itertools order, the assistant's
own first) on a copy of the world and keeps the first in which a call fails, else the
assistant's. `Environment.order` with `parallel="first_failing_order"` must pick the same order
as that brute force, on seeded random batches in random device states.
"""

from __future__ import annotations

import itertools
import json
import random
from datetime import datetime

from support import registry_for
from toolplay.conversation import Environment
from toolplay.conversation._environment import first_failing_order
from toolplay.messages import ToolCall
from toolplay.tools import ToolPresentation
from toolplay.world import World

REGISTRY = registry_for(["settings", "contacts", "messaging"])
CLOCK = datetime.fromisoformat("2024-05-10T09:30:00+00:00")
CONTACTS = [
    {
        "person_id": "me",
        "name": "Sam Park",
        "phone_number": "+14085550100",
        "relationship": "self",
        "is_self": True,
    },
    {
        "person_id": "bob",
        "name": "Bob Rivera",
        "phone_number": "+14155550142",
        "relationship": "friend",
        "is_self": False,
    },
]
POOL = [
    ("set_cellular_service_status", {"on": True}),
    ("set_cellular_service_status", {"on": False}),
    ("set_wifi_status", {"on": True}),
    ("set_low_battery_mode_status", {"on": True}),
    ("set_low_battery_mode_status", {"on": False}),
    ("send_message_with_phone_number", {"phone_number": "+14155550142", "content": "hi"}),
    ("search_messages", {"content": "hi"}),
    ("search_contacts", {"name": "Bob"}),
    ("get_cellular_service_status", {}),
    ("remove_contact", {"person_id": "bob"}),
    ("add_contact", {"name": "Ann", "phone_number": "+14155550100"}),
]


def world(rng: random.Random) -> World:
    low = rng.random() < 0.3
    settings = {
        "cellular": not low and rng.random() < 0.5,
        "wifi": not low and rng.random() < 0.5,
        "location_service": True,
        "low_battery_mode": low,
        "latitude": 0.0,
        "longitude": 0.0,
    }
    return REGISTRY.new_world({"settings": [settings], "contacts": CONTACTS}, clock=CLOCK)


def batch(rng: random.Random) -> list[ToolCall]:
    chosen = rng.choices(POOL, k=rng.randint(2, 4))
    return [
        ToolCall(id=f"c{i}", name=n, arguments=json.dumps(a)) for i, (n, a) in enumerate(chosen)
    ]


def brute_force(calls: list[ToolCall], start: World) -> list[int]:
    for order in itertools.permutations(range(len(calls))):
        trial = start.fork()
        if any(not REGISTRY.execute(trial, calls[i]).ok for i in order):
            return list(order)
    return list(range(len(calls)))


def environment(start: World) -> Environment:
    shown = ToolPresentation.plain(REGISTRY)
    tools = ToolPresentation(shown.schemas, shown.names, parallel="first_failing_order")
    return Environment(start, REGISTRY, tools)


def test_the_order_is_the_brute_forces_on_random_batches() -> None:
    rng = random.Random(22)
    for _ in range(150):
        start, calls = world(rng), batch(rng)
        before = start.fingerprint()
        assert environment(start).order(calls) == brute_force(calls, start), calls
        assert start.fingerprint() == before and not start.changes  # tried on forks only


def test_results_come_in_the_failing_orders_order() -> None:
    # the reference's own example: [cellular on, search, send] with cellular off and
    # everything succeeding in the assistant's order; [search, send, cellular on] fails
    rng = random.Random(0)
    start = world(rng)
    start.update("settings", {}, {"cellular": False, "low_battery_mode": False})
    calls = [
        ToolCall(id="a", name="set_cellular_service_status", arguments='{"on": true}'),
        ToolCall(id="b", name="search_contacts", arguments='{"name": "Bob"}'),
        ToolCall(
            id="c",
            name="send_message_with_phone_number",
            arguments='{"phone_number": "+14155550142", "content": "hi"}',
        ),
    ]
    assert environment(start).order(calls) == [1, 2, 0]


def test_calls_that_share_no_table_keep_the_assistants_order_untried() -> None:
    start = world(random.Random(1))
    calls = [
        ToolCall(id="a", name="search_contacts", arguments='{"name": "Bob"}'),
        ToolCall(id="b", name="get_cellular_service_status", arguments="{}"),
    ]
    tried: list[int] = []

    def run(w: World, i: int) -> bool:
        tried.append(i)
        return False

    assert environment(start).order(calls) == [0, 1]
    assert first_failing_order(2, start, run) is None and tried  # the search itself would try


def test_the_search_gives_up_past_its_limit() -> None:
    start = world(random.Random(2))
    assert first_failing_order(6, start, lambda w, i: False, limit=50) is None
