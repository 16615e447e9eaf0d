"""Each augmentation changes what the assistant is shown, and nothing else."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, utils

from support import load_suite, play_dynamic, registry_for
from toolplay.conversation import Environment
from toolplay.messages import ToolCall
from toolplay.roles import OracleAssistant, ScriptedUser
from toolplay.tools import (
    AUGMENTATIONS,
    RegistryError,
    ToolPresentation,
    present,
    rank_distractors,
    scrambled_name,
)

FULL = registry_for(["settings", "contacts", "messaging"])
OFFERED = FULL.select(["search_contacts", "send_message_with_phone_number"])
PLAIN = ToolPresentation.plain(OFFERED)


def without(schemas: list[dict[str, Any]], *, tool_desc: bool, arg_keys: tuple[str, ...]) -> list:
    schemas = copy.deepcopy(schemas)
    for schema in schemas:
        if tool_desc:
            schema["function"]["description"] = ""
        for prop in schema["function"]["parameters"]["properties"].values():
            for key in arg_keys:
                prop.pop(key, None)
    return schemas


@pytest.mark.parametrize(
    ("name", "tool_desc", "arg_keys"),
    [
        ("no_tool_descriptions", True, ()),
        ("no_arg_descriptions", False, ("description",)),
        ("no_docs", True, ("description",)),
        ("no_arg_types", False, ("type", "items", "anyOf", "format", "minimum", "maximum")),
    ],
)
def test_schema_stripping_removes_exactly_its_part(
    name: str, tool_desc: bool, arg_keys: tuple[str, ...]
) -> None:
    shown = present(OFFERED, [name], FULL)
    expected = without(list(PLAIN.schemas), tool_desc=tool_desc, arg_keys=arg_keys)
    assert list(shown.schemas) == expected
    assert list(shown.schemas) != list(PLAIN.schemas)
    assert shown.names == PLAIN.names
    assert OFFERED["search_contacts"].schema == PLAIN.schemas[0]  # the registry is untouched


def test_scrambled_names_rename_only() -> None:
    shown = present(OFFERED, ["scrambled_names"], FULL)
    for before, after in zip(PLAIN.schemas, shown.schemas, strict=True):
        real = before["function"]["name"]
        assert after["function"]["name"] == scrambled_name(real, FULL) != real
        assert {**after["function"], "name": real} == before["function"]
        assert shown.real_name(after["function"]["name"]) == real
    assert shown.real_name("search_contacts") is None  # real names are not callable any more
    # generic names as the reference's `<module>_<number>`, numbered in name order per domain
    contacts = sorted(n for n in FULL.names() if FULL[n].domain == "contacts")
    assert (
        scrambled_name("search_contacts", FULL) == f"contacts_{contacts.index('search_contacts')}"
    )
    assert scrambled_name("send_message_with_phone_number", FULL).startswith("messaging_")


def names_of(presentation: ToolPresentation) -> list[str]:
    return [s["function"]["name"] for s in presentation.schemas]


@pytest.mark.parametrize(
    ("name", "count"), [("distractors_3", 3), ("distractors_10", 10), ("distractors_all", None)]
)
def test_distractors_add_the_best_ranked_unoffered_tools_in_a_seeded_shuffle(
    name: str, count: int | None
) -> None:
    shown = present(OFFERED, [name], FULL)
    ranking = rank_distractors(PLAIN, FULL)
    expected = ranking if count is None else ranking[:count]
    assert sorted(names_of(shown)) == sorted([*PLAIN.names, *expected])
    for schema in shown.schemas:
        assert schema == FULL[schema["function"]["name"]].schema
    assert names_of(present(OFFERED, [name], FULL)) == names_of(shown)  # same seed, same order
    if count is None:
        assert len(shown.schemas) == len(FULL.names())


def test_distractor_order_does_not_give_the_offered_tools_away() -> None:
    shown = names_of(present(OFFERED, ["distractors_10"], FULL))
    assert shown[:2] != names_of(PLAIN)  # not simply appended after the offered tools


def test_distractor_ranking_puts_the_same_domain_first_then_name_similarity() -> None:
    ranking = rank_distractors(PLAIN, FULL)
    domains = {"contacts", "messaging"}
    same = [n for n in ranking if FULL[n].domain in domains]
    assert ranking[: len(same)] == same  # same-domain tools come first
    assert ranking.index("search_messages") < ranking.index("get_low_battery_mode_status")

    # within each part, names by decreasing best WRatio to an offered tool (the reference's)
    def best(name: str) -> float:
        return max(fuzz.WRatio(name, t, processor=utils.default_process) for t in PLAIN.names)

    for part in (same, ranking[len(same) :]):
        scores = [best(n) for n in part]
        assert scores == sorted(scores, reverse=True)


def test_a_scenario_ranking_replaces_the_rule() -> None:
    own = ["get_wifi_status", "search_contacts", "add_contact", "not_a_tool"]
    shown = present(OFFERED, ["distractors_3"], FULL, distractors=own)
    assert sorted(names_of(shown)) == sorted([*PLAIN.names, "get_wifi_status", "add_contact"])


def test_unknown_augmentation_is_refused() -> None:
    with pytest.raises(RegistryError, match="unknown augmentation 'shuffle'"):
        present(OFFERED, ["shuffle"])


@pytest.mark.parametrize("name", sorted(AUGMENTATIONS))
def test_oracle_outcome_is_the_same_under_every_augmentation(name: str) -> None:
    suite = load_suite("quick")
    for scenario in suite.scenarios:
        plain = asyncio.run(play_dynamic(scenario, OracleAssistant(), ScriptedUser()))
        shown = asyncio.run(
            play_dynamic(scenario, OracleAssistant(), ScriptedUser(), augment=[name])
        )
        assert shown.changes == plain.changes
        assert [m.result for m in shown.messages] == [m.result for m in plain.messages]
        assert [m.tool_name for m in shown.messages] == [m.tool_name for m in plain.messages]


def test_wrong_type_without_types_names_the_expected_type() -> None:
    world = FULL.new_world({}, clock=load_suite("quick").scenarios[0].world.clock)
    env = Environment(world, OFFERED, present(OFFERED, ["no_arg_types"], FULL))
    outcome = env.execute(
        ToolCall(id="1", name="search_contacts", arguments='{"is_self": "yes"}'), 1
    )
    assert outcome.error_type == "invalid_arguments"
    assert "must be of type boolean" in (outcome.error or "")


@given(
    offered=st.lists(st.sampled_from(sorted(FULL.names())), min_size=1, max_size=5, unique=True),
    name=st.sampled_from(["distractors_3", "distractors_10", "distractors_all"]),
)
@settings(max_examples=40, deadline=None)
def test_distractors_for_any_offered_set(offered: list[str], name: str) -> None:
    chosen = FULL.select(offered)
    plain = ToolPresentation.plain(chosen)
    ranking = rank_distractors(plain, FULL)
    assert sorted(ranking) == sorted(set(FULL.names()) - set(offered))  # every other tool, once
    shown = present(chosen, [name], FULL)
    count = {"distractors_3": 3, "distractors_10": 10, "distractors_all": None}[name]
    expected = ranking if count is None else ranking[:count]
    assert sorted(names_of(shown)) == sorted([*offered, *expected])
    assert names_of(present(chosen, [name], FULL)) == names_of(shown)
