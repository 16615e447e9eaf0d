"""The milestone scorer: every constraint kind, the DAG, references, minefields, turn count."""

from __future__ import annotations

import asyncio
import copy
import itertools
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import support
from support import parse_scenario, play_dynamic, score_milestones
from toolplay.messages import (
    ToolCall,
    Trajectory,
)
from toolplay.methods.toolsandbox._mapping import best_mapping
from toolplay.methods.toolsandbox._scoring import _Compiled
from toolplay.methods.toolsandbox._similarity import rouge_l
from toolplay.methods.toolsandbox._trace import TraceView
from toolplay.roles import AssistantContext, AssistantTurn, ScriptedUser
from toolplay.scenarios import Scenario
from toolplay.world import replay_changes

CONTACTS = [
    {
        "person_id": "self",
        "name": "Sam Park",
        "phone_number": "+14085550100",
        "relationship": "self",
        "is_self": True,
    },
    {
        "person_id": "c-bob",
        "name": "Bob Rivera",
        "phone_number": "+14155550142",
        "relationship": "friend",
        "is_self": False,
    },
]
BASE: dict[str, Any] = {
    "id": "t",
    "world": {
        "domains": ["settings", "contacts", "messaging", "timeutil"],
        "clock": "2024-05-10T09:30:00-07:00",
        "tables": {"contacts": CONTACTS},
    },
    "user": {"script": ["go", "ok", "thanks"]},
}


class Script:
    """An assistant that plays fixed turns: lists of (tool, arguments) calls, or text."""

    name = "script"

    def __init__(self, turns: list[list[tuple[str, dict[str, Any]]] | str]) -> None:
        self.turns = turns

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        done = sum(1 for m in context.messages if m.sender == "assistant")
        if done >= len(self.turns):
            return AssistantTurn(content="Done.")
        turn = self.turns[done]
        if isinstance(turn, str):
            return AssistantTurn(content=turn)
        calls = tuple(
            ToolCall.from_args(f"c{done}_{k}", name, args) for k, (name, args) in enumerate(turn)
        )
        return AssistantTurn(tool_calls=calls)


def scenario(**fields: Any) -> Scenario:
    data = copy.deepcopy(BASE)
    data.update(fields)
    return parse_scenario(data, "test")


def play(s: Scenario, turns: list[Any]) -> Trajectory:
    return asyncio.run(play_dynamic(s, Script(turns), ScriptedUser()))


def score(s: Scenario, turns: list[Any]) -> tuple[float, dict[str, Any]]:
    result = score_milestones(s, play(s, turns))
    assert result.score is not None
    return result.score, support.details(result)


def one(*constraints: dict[str, Any], **extra: Any) -> Scenario:
    return scenario(milestones=[{"constraints": list(constraints)}], **extra)


SEND = ("send_message_with_phone_number", {"phone_number": "+14155550142", "content": "hi there"})
ADD = (
    "add_contact",
    {"name": "Dana Lee", "phone_number": "+14155550187", "relationship": "dentist"},
)


def test_state_equals_and_contains() -> None:
    equals = one({"kind": "state", "table": "settings", "rows": [{"wifi": False}]})
    assert score(equals, [[("set_wifi_status", {"on": False})]])[0] == 1.0
    assert score(equals, ["no"])[0] == 0.0
    contains = one(
        {
            "kind": "state",
            "table": "contacts",
            "match": "contains",
            "rows": [{"name": "Bob Rivera"}],
        }
    )
    assert score(contains, ["no"])[0] == 1.0
    too_many = one({"kind": "state", "table": "contacts", "rows": [{"name": "Bob Rivera"}]})
    assert score(too_many, ["no"])[0] == 0.0


def test_added_rows_with_rouge_partial_credit() -> None:
    s = one(
        {
            "kind": "added",
            "table": "contacts",
            "rows": [{"name": "Dana Lee", "relationship": "my dentist"}],
        }
    )
    assert score(s, [[ADD]])[0] == pytest.approx(((2 / 3) * 1.0) ** 0.5)  # rouge "dentist"
    assert score(s, ["no"])[0] == 0.0
    extra = ("add_contact", {"name": "Other", "phone_number": "+15550001111"})
    assert score(s, [[extra], [ADD]])[0] == 0.0  # equals: exactly the target rows are new
    s = one(
        {"kind": "added", "table": "contacts", "match": "contains", "rows": [{"name": "Dana Lee"}]}
    )
    assert score(s, [[extra], [ADD]])[0] == 1.0


def test_removed_and_updated() -> None:
    removed = one({"kind": "removed", "table": "contacts", "rows": [{"person_id": "c-bob"}]})
    assert score(removed, [[("remove_contact", {"person_id": "c-bob"})]])[0] == 1.0
    assert score(removed, [[ADD]])[0] == 0.0  # a row appeared: not a removal
    updated = one(
        {
            "kind": "updated",
            "table": "contacts",
            "rows": [{"person_id": "c-bob", "phone_number": "+14155550199"}],
        }
    )
    modify = ("modify_contact", {"person_id": "c-bob", "phone_number": "+14155550199"})
    assert score(updated, [[modify]])[0] == 1.0
    assert score(updated, [[ADD]])[0] == 0.0  # row count changed


def test_guardrail_is_a_factor_not_a_mean_member() -> None:
    s = one(
        {"kind": "state", "table": "settings", "rows": [{"wifi": False}]},
        {"kind": "guardrail", "table": "contacts"},
    )
    assert score(s, [[("set_wifi_status", {"on": False})]])[0] == 1.0
    value, details = score(s, [[ADD], [("set_wifi_status", {"on": False})]])
    assert value == 0.0
    guard_only = one({"kind": "guardrail", "table": "contacts"})
    assert score(guard_only, ["no"])[0] == 1.0


def test_tool_call_alternatives_outcomes_and_real_names() -> None:
    s = one(
        {
            "kind": "tool_call",
            "alternatives": [
                {
                    "tool": "search_contacts",
                    "arguments": {"name": {"contains": "bob", "ignore_case": True}},
                },
                {"tool": "search_contacts", "arguments": {"phone_number": "+14155550142"}},
            ],
        }
    )
    assert score(s, [[("search_contacts", {"name": "Bob"})]])[0] == 1.0
    assert score(s, [[("search_contacts", {"phone_number": "+14155550142"})]])[0] == 1.0
    # phone numbers compare as given (the reference's rule): another format is another value
    assert score(s, [[("search_contacts", {"phone_number": "+1 415 555 0142"})]])[0] == 0.0
    strict = one(
        {"kind": "tool_call", "tool": "search_contacts", "arguments": {"name": {"contains": "bob"}}}
    )
    assert score(strict, [[("search_contacts", {"name": "Bob"})]])[0] == 0.0
    assert score(s, [[("search_contacts", {"name": "Mia"})]])[0] == 0.0
    failed = ("send_message_with_phone_number", {"phone_number": "x", "content": "y"})
    wants_error = one(
        {"kind": "tool_call", "tool": "send_message_with_phone_number", "outcome": "error"}
    )
    assert score(wants_error, [[failed]])[0] == 1.0
    wants_success = one({"kind": "tool_call", "tool": "send_message_with_phone_number"})
    assert score(wants_success, [[failed]])[0] == 0.0
    assert score(wants_success, [[SEND]])[0] == 1.0


def test_tool_call_matches_real_name_behind_a_renamed_tool() -> None:
    s = one({"kind": "tool_call", "tool": "set_wifi_status", "arguments": {"on": False}})
    trajectory = play(s, [[("set_wifi_status", {"on": False})]])
    shown = [
        m.model_copy(
            update={
                "tool_calls": tuple(c.model_copy(update={"name": "tool_7"}) for c in m.tool_calls)
            }
        )
        for m in trajectory.messages
    ]
    renamed = trajectory.model_copy(
        update={"messages": shown, "tool_names": {"tool_7": "set_wifi_status"}}
    )
    assert score_milestones(s, renamed).score == 1.0


def test_message_constraint_uses_rouge_l_by_default() -> None:
    s = one({"kind": "message", "content": "I texted Bob that you are late"})
    assert score(s, ["I texted Bob that you are late"])[0] == 1.0
    partial = score(s, ["I sent Bob a note that you are late"])[0]
    # the reference scores a reply as a (sender, recipient, content) row: ROUGE-L r -> r^(1/3)
    r = rouge_l("I texted Bob that you are late", "I sent Bob a note that you are late")
    assert 0.0 < r < 1.0
    assert partial == pytest.approx(r ** (1 / 3))
    exact = one({"kind": "message", "content": {"exact": "OK"}})
    assert score(exact, ["OK"])[0] == 1.0 and score(exact, ["ok"])[0] == 0.0


def test_flow_from_milestone_into_argument_and_template() -> None:
    s = scenario(
        milestones=[
            {"id": "found", "constraints": [{"kind": "tool_call", "tool": "search_contacts"}]},
            {
                "id": "sent",
                "constraints": [
                    {
                        "kind": "flow",
                        "from": "found",
                        "path": "*.phone_number",
                        "argument": "phone_number",
                    },
                    {"kind": "added", "table": "messages", "rows": [{"content": "hi there"}]},
                ],
            },
            {
                "constraints": [
                    {
                        "kind": "flow",
                        "from": "found",
                        "path": "0.name",
                        "template": "Texted {value}.",
                    }
                ]
            },
        ]
    )
    good = [[("search_contacts", {"name": "Bob"})], [SEND], "Texted Bob Rivera."]
    assert score(s, good)[0] == 1.0
    wrong_number = (
        "send_message_with_phone_number",
        {"phone_number": "+14155550143", "content": "hi"},
    )
    value, details = score(
        s, [[("search_contacts", {"name": "Bob"})], [wrong_number], "Texted Bob Rivera."]
    )
    assert details["milestone_mapping"][1]["similarity"] == 0.0
    assert value == pytest.approx(2 / 3)
    # without the `added` check the message row is a side effect the implicit guardrail
    # (messages unchanged since `found`) forbids, for `sent` and for the reply after it
    bare = copy.deepcopy(s)
    del bare.milestones[1].constraints[1]
    value, details = score(bare, good)
    assert [m["similarity"] for m in details["milestone_mapping"]] == [1.0, 0.0, 0.0]


def test_flow_from_tool_with_rounding_and_closeness() -> None:
    s = one(
        {
            "kind": "flow",
            "from_tool": "get_current_timestamp",
            "tool": "shift_timestamp",
            "argument": "timestamp",
            "similarity": "close",
            "tolerance": 60,
        }
    )
    now: tuple[str, dict[str, Any]] = ("get_current_timestamp", {})
    assert score(s, [[now], [("shift_timestamp", {"timestamp": 1715358630, "days": 1})]])[0] == 1
    assert score(s, [[("shift_timestamp", {"timestamp": 1715358630, "days": 1})]])[0] == 0
    rounded = one(
        {
            "kind": "flow",
            "from_tool": "get_current_timestamp",
            "round": -3,
            "template": "It is {value}",
            "similarity": "contains",
        }
    )
    assert score(rounded, [[now], "It is 1715359000 now."])[0] == 1.0


def test_dag_order_and_shared_indices() -> None:
    s = scenario(
        milestones=[
            {
                "id": "a",
                "constraints": [{"kind": "state", "table": "settings", "rows": [{"wifi": False}]}],
            },
            {"id": "b", "constraints": [{"kind": "message", "content": {"exact": "done"}}]},
        ]
    )
    assert score(s, [[("set_wifi_status", {"on": False})], "done"])[0] == 1.0
    # the message comes before the state change: both cannot be had in order
    assert score(s, ["done", [("set_wifi_status", {"on": False})]])[0] == 0.5
    free = scenario(
        milestones=[
            {
                "id": "a",
                "constraints": [{"kind": "state", "table": "settings", "rows": [{"wifi": False}]}],
            },
            {
                "id": "b",
                "after": [],
                "constraints": [{"kind": "message", "content": {"exact": "done"}}],
            },
        ]
    )
    assert score(free, ["done", [("set_wifi_status", {"on": False})]])[0] == 1.0


def test_added_relative_to_a_reference_milestone() -> None:
    s = scenario(
        milestones=[
            {
                "id": "first",
                "constraints": [
                    {"kind": "added", "table": "contacts", "rows": [{"name": "Dana Lee"}]}
                ],
            },
            {
                "constraints": [
                    {
                        "kind": "added",
                        "table": "messages",
                        "reference": "first",
                        "rows": [{"recipient_phone_number": "+14155550142"}],
                    },
                    {"kind": "guardrail", "table": "contacts", "reference": "first"},
                ]
            },
        ]
    )
    assert score(s, [[ADD], [SEND]])[0] == 1.0
    extra = ("add_contact", {"name": "Zed", "phone_number": "+15550002222"})
    assert score(s, [[ADD], [extra], [SEND]])[0] == 0.5  # contacts changed after "first"


def test_minefield_vetoes_and_details_are_stored() -> None:
    s = scenario(
        milestones=[{"constraints": [{"kind": "message", "content": {"exact": "Sorry"}}]}],
        minefields=[
            {
                "id": "sent",
                "constraints": [
                    {
                        "kind": "tool_call",
                        "tool": "send_message_with_phone_number",
                        "outcome": "any",
                    }
                ],
            }
        ],
    )
    value, details = score(s, ["Sorry"])
    assert value == 1.0 and details["minefield_similarity"] == 0.0
    value, details = score(s, [[SEND], "Sorry"])
    assert value == 0.0 and details["milestone_similarity"] == 1.0
    assert details["minefield_mapping"][0]["id"] == "sent"
    assert details["minefield_mapping"][0]["index"] == 3  # the tool result message
    assert details["turn_count"] == details["messages"] - 1  # all but the system prompt


def test_no_milestones_scores_one() -> None:
    s = scenario(evaluation="milestones")
    assert score(s, ["hi"])[0] == 1.0


def test_oracle_shortfalls_become_validation_problems() -> None:
    s = one({"kind": "message", "content": {"exact": "never said"}})
    trajectory = play(s, ["hello"]).model_copy(update={"assistant": "oracle"})
    problems = support.details(score_milestones(s, trajectory))["validation_problems"]
    assert "reached only 0.000" in problems[0]


WIFI_ON = ("set_wifi_status", {"on": True})
SEND_TO_BOB = {"kind": "added", "table": "messages", "rows": [{"content": "hi there"}]}


def two_steps(**second: Any) -> Scenario:
    """Milestone `sent` (a message added), then `told` (a reply), as a chain."""
    return scenario(
        world={**BASE["world"], "tables": {**BASE["world"]["tables"], "settings": [CELL_ON]}},
        milestones=[
            {"id": "sent", "constraints": [SEND_TO_BOB]},
            {"id": "told", "constraints": [{"kind": "message", "content": "Done."}], **second},
        ],
    )


CELL_ON = {
    "cellular": True,
    "wifi": False,
    "location_service": False,
    "low_battery_mode": False,
    "latitude": 37.33,
    "longitude": -122.0,
}


def test_implicit_guardrails_charge_side_effects_between_milestones() -> None:
    s = two_steps()
    assert score(s, [[SEND], "Done."])[0] == 1.0
    # a settings change between the milestones: `told` requires settings unchanged since `sent`
    value, details = score(s, [[SEND], [WIFI_ON], "Done."])
    assert [m["similarity"] for m in details["milestone_mapping"]] == [1.0, 0.0]
    assert value == 0.5
    # ... before the first milestone too: `sent` refers to `start` (its `added` reference)
    value, details = score(s, [[WIFI_ON], [SEND], "Done."])
    assert details["milestone_mapping"][0]["similarity"] == 0.0
    # a table the predecessor checks is not guarded (a second message is no side effect)
    assert score(s, [[SEND], [SEND], "Done."])[0] == 1.0
    # guardrail_exclude / guardrail_tables narrow the rule, as in the reference
    assert score(two_steps(guardrail_exclude=["settings"]), [[SEND], [WIFI_ON], "Done."])[0] == 1.0
    assert score(two_steps(guardrail_tables=[]), [[SEND], [WIFI_ON], "Done."])[0] == 1.0


def test_implicit_guardrails_on_minefields() -> None:
    s = scenario(minefields=[{"constraints": [SEND_TO_BOB]}])  # `added` refers to `start`
    assert score(s, [[SEND]])[0] == 0.0  # the forbidden message was sent: veto
    # minefields get implicit guardrails too: with settings changed since `start`, the
    # minefield as the reference derives it does not match, so there is no veto
    assert score(s, [[("set_wifi_status", {"on": False})], [SEND]])[0] == 1.0


def test_mapping_on_useful_indices_equals_the_full_mapping() -> None:
    """Leaving out indices no better than the last kept one changes neither score nor indices."""
    s = scenario(
        world={**BASE["world"], "tables": {**BASE["world"]["tables"], "settings": [CELL_ON]}},
        milestones=[
            {"id": "sent", "constraints": [SEND_TO_BOB]},
            {
                "id": "x",
                "constraints": [
                    {"kind": "tool_call", "tool": "search_contacts"},
                    {"kind": "flow", "from": "sent", "path": "", "template": "{value}"},
                ],
            },
            {
                "id": "y",
                "constraints": [
                    {"kind": "message", "content": "Done."},
                    {"kind": "guardrail", "table": "contacts", "reference": ["x", "sent"]},
                ],
            },
        ],
    )
    search = ("search_contacts", {"name": "Bob"})
    plays = [
        [[SEND], "Done.", "Done.", [search], [search], "Done.", [WIFI_ON], "Done.", "Done."],
        ["Done.", [search], [SEND], [search], "Done.", [SEND], "Done.", "Done.", [search]],
        [[WIFI_ON], [SEND], [search], "Done.", "Done.", [search], [SEND], "Done."],
    ]
    for turns in plays:
        trajectory = play(s, turns)
        setup_ = support.setup(s)
        world = replay_changes(setup_.new_world(), trajectory.changes)
        view = TraceView(trajectory, world)
        compiled = _Compiled(s.milestones, list(world.state()))
        key = compiled.key(view)
        assert len(compiled.useful_indices(view, key)) < view.size
        full = best_mapping(
            lambda m, i, refs, c=compiled, v=view: c.similarity(v, m, i, refs),
            view.size,
            compiled.edges,
            compiled.references,
            k=len(s.milestones),
            key=key,
        )
        mean, evidence = compiled.match(view)
        assert mean == pytest.approx(full.mean, abs=1e-12)
        assert tuple(e.index for e in evidence) == full.indices


def test_a_run_recorded_with_enabled_rescores_as_on() -> None:
    """Runs recorded before the setters took `on` passed `enabled`; re-scoring reads them alike."""
    s = one({"kind": "tool_call", "tool": "set_wifi_status", "arguments": {"on": False}})
    trajectory = play(s, [[("set_wifi_status", {"on": False})]])
    old = [
        m.model_copy(
            update={
                "tool_calls": tuple(
                    c.model_copy(update={"arguments": '{"enabled": false}'}) for c in m.tool_calls
                )
            }
        )
        for m in trajectory.messages
    ]
    assert any('"enabled"' in c.arguments for m in old for c in m.tool_calls)
    assert score_milestones(s, trajectory.model_copy(update={"messages": old})).score == 1.0


ACTIONS: list[Any] = [
    [SEND],
    [("send_message_with_phone_number", {"phone_number": "+14155550142", "content": "late"})],
    [("set_wifi_status", {"on": True})],
    [("set_wifi_status", {"on": False})],
    [("search_contacts", {"name": "Bob"})],
    [("add_contact", {"name": "Dana Lee", "phone_number": "+14155550187"})],
    "Done.",
    "I texted Bob.",
]
GUARDED = scenario(
    world={**BASE["world"], "tables": {**BASE["world"]["tables"], "settings": [CELL_ON]}},
    milestones=[
        {"id": "found", "constraints": [{"kind": "tool_call", "tool": "search_contacts"}]},
        {
            "id": "wifi",
            "after": [],
            "constraints": [{"kind": "state", "table": "settings", "rows": [{"wifi": True}]}],
        },
        {
            "id": "sent",
            "after": ["found", "wifi"],
            "constraints": [
                {
                    "kind": "added",
                    "table": "messages",
                    "reference": "found",
                    "rows": [{"content": {"rouge": "hi there"}}],
                },
                {
                    "kind": "flow",
                    "from": "found",
                    "path": "*.phone_number",
                    "argument": "phone_number",
                },
            ],
        },
        {"id": "told", "constraints": [{"kind": "message", "content": "I texted Bob."}]},
    ],
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns=st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=4))
def test_milestone_scoring_with_implicit_guardrails_matches_brute_force(turns: list[Any]) -> None:
    """Several references per milestone, implicit guardrails, shortened index set: all exact."""
    trajectory = play(GUARDED, turns)
    world = replay_changes(support.setup(GUARDED).new_world(), trajectory.changes)
    view = TraceView(trajectory, world)
    compiled = _Compiled(GUARDED.milestones, list(world.state()))
    assert compiled.references[2] == (0, 1)  # `sent` refers to `found` and waits for `wifi`
    assert sum(compiled.implicit) > 0
    k, n = len(GUARDED.milestones), view.size
    best: tuple[float, tuple[int, ...]] | None = None
    for idx in itertools.product(range(n), repeat=k):
        if any(idx[a] > idx[b] for a, b in compiled.edges):
            continue
        total = math.fsum(
            compiled.similarity(
                view,
                m,
                idx[m],
                tuple(idx[r] for r in compiled.references[m]) if m in compiled.references else None,
            )
            for m in range(k)
        )
        if best is None or total > best[0] + 1e-12:  # product order: the first best is lexmin
            best = (total, idx)
    assert best is not None
    mean, evidence = compiled.match(view)
    assert mean == pytest.approx(best[0] / k, abs=1e-12)
    assert tuple(e.index for e in evidence) == best[1]
