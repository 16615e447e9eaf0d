"""World-state variants and augmentation variants, generated from small hand-built bases.

Each state variant must add exactly the right reference calls (in the turn that needs them)
and restore milestones (ordered before the milestones of the dependent calls), validate with
the oracle (1.0, no minefield) and give the no-call assistant 0.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import support
from support import (
    expand_variants,
    offered_tools,
    parse_scenario,
    play_dynamic,
    score_trajectory,
    state_variant,
)
from toolplay.roles import OracleAssistant, ScriptedUser, SilentAssistant
from toolplay.scenarios import (
    AUGMENTATION_SETTINGS,
    Scenario,
    ScenarioError,
    StateConstraint,
    VariantSkipped,
)

CLOCK = "2025-03-14T16:20:00-04:00"
BOOK = [
    {"person_id": "me", "name": "Ada Quinn", "phone_number": "+12125550100", "is_self": True},
    {"person_id": "c-lee", "name": "Lee Moreau", "phone_number": "+12125550123"},
]
SEND = {"phone_number": "+12125550123", "content": "Running late, start without me"}
SENT = {"recipient_phone_number": SEND["phone_number"], "content": SEND["content"]}


def scenario(**fields: Any) -> Scenario:
    """A sandbox base scenario from keyword fields (world defaults filled in)."""
    data: dict[str, Any] = {
        "id": "base",
        "categories": ["multiple_tool_call", "single_user_turn"],
        "world": {"domains": ["sandbox"], "clock": CLOCK, "tables": {"contacts": BOOK}},
    }
    data.update(fields)
    return parse_scenario(data, "test")


def text_lee(**fields: Any) -> Scenario:
    """Find Lee, text him: depends on cellular only."""
    fields.setdefault("tools", {"allow": ["search_contacts", "send_message_with_phone_number"]})
    return scenario(
        user={"script": ["Tell Lee I'm running late"]},
        reference=[
            {
                "user": "Tell Lee I'm running late",
                "calls": [
                    {"name": "search_contacts", "arguments": {"name": "Lee"}},
                    {"name": "send_message_with_phone_number", "arguments": SEND},
                ],
                "reply": "I texted Lee Moreau.",
            }
        ],
        milestones=[
            {
                "id": "found",
                "constraints": [
                    {"kind": "tool_call", "tool": "search_contacts", "arguments": {"name": "Lee"}}
                ],
            },
            {
                "id": "sent",
                "constraints": [
                    {"kind": "added", "table": "messages", "rows": [SENT]},
                    {
                        "kind": "flow",
                        "from": "found",
                        "path": "*.phone_number",
                        "argument": "phone_number",
                    },
                ],
            },
        ],
        **fields,
    )


def weather_here() -> Scenario:
    """Weather around the device: needs wifi and location service."""
    return scenario(
        categories=["single_tool_call", "single_user_turn"],
        user={"script": ["Is it cold out?"]},
        reference=[
            {
                "user": "Is it cold out?",
                "calls": [{"name": "search_weather_around_lat_lon", "arguments": {}}],
                "reply": "Not really.",
            }
        ],
        milestones=[
            {
                "id": "weather",
                "constraints": [{"kind": "tool_call", "tool": "search_weather_around_lat_lon"}],
            }
        ],
        tools={"allow": ["search_weather_around_lat_lon"]},
    )


def play(target: Scenario, assistant: Any) -> tuple[float | None, dict[str, Any]]:
    trajectory = asyncio.run(play_dynamic(target, assistant, ScriptedUser()))
    result = score_trajectory(target, trajectory)
    return result.score, support.details(result)


def assert_valid(target: Scenario) -> None:
    """Oracle 1.0 without validation problems; the no-call assistant scores 0."""
    score, details = play(target, OracleAssistant())
    assert score == 1.0, details
    assert "validation_problems" not in details
    assert play(target, SilentAssistant())[0] == 0.0


def calls(target: Scenario) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, c.arguments) for turn in target.reference for c in turn.calls]


def milestone(target: Scenario, name: str) -> Any:
    return next(m for m in target.milestones if m.id == name)


def test_cellular_off_inserts_one_setter_and_one_restore_milestone() -> None:
    base = text_lee()
    variant = state_variant(base, "cellular_off")
    assert variant.id == "base~cellular_off" and variant.base_id == "base"
    assert variant.world.tables["settings"][0]["cellular"] is False
    assert calls(variant) == [
        ("search_contacts", {"name": "Lee"}),
        ("set_cellular_service_status", {"on": True}),
        ("send_message_with_phone_number", SEND),
    ]
    assert [m.id for m in variant.milestones] == ["found", "sent", "variant_cellular_on"]
    restore = milestone(variant, "variant_cellular_on")
    assert restore.after == []
    assert restore.constraints[0].model_dump(exclude_defaults=True) == {
        "kind": "state",
        "table": "settings",
        "rows": [{"cellular": True}],
    }
    assert milestone(variant, "found").after == []
    assert milestone(variant, "sent").after == ["found", "variant_cellular_on"]
    assert variant.tools.allow == [
        "search_contacts",
        "send_message_with_phone_number",
        "set_cellular_service_status",
        "get_cellular_service_status",
    ]
    assert variant.categories == ["multiple_tool_call", "single_user_turn", "state_dependency"]
    assert_valid(base)
    assert_valid(variant)


def test_a_variants_minefields_stay_live_after_its_setter_calls() -> None:
    """Texting the wrong person needs cellular on in the variant too: the minefield must not
    keep a guardrail on settings, or turning cellular on would disarm it for good."""
    wrong = {"recipient_phone_number": "+12125550999"}
    minefields = [
        {
            "id": "texted_stranger",
            "constraints": [
                {"kind": "added", "table": "messages", "match": "contains", "rows": [wrong]}
            ],
        }
    ]
    variant = state_variant(text_lee(minefields=minefields), "cellular_off")
    assert variant.minefields[0].guardrail_exclude == ["settings"]
    assert_valid(variant)
    stray = variant.model_copy(
        update={
            "reference": [
                variant.reference[0].model_copy(
                    update={
                        "calls": [
                            *variant.reference[0].calls[:2],
                            variant.reference[0]
                            .calls[2]
                            .model_copy(
                                update={"arguments": {**SEND, "phone_number": "+12125550999"}}
                            ),
                        ]
                    }
                )
            ]
        }
    )
    assert play(stray, OracleAssistant())[0] == 0.0


def test_low_battery_turns_battery_mode_off_then_the_needed_setting_on() -> None:
    variant = state_variant(text_lee(), "low_battery")
    settings_row = variant.world.tables["settings"][0]
    assert settings_row["low_battery_mode"] is True
    assert not (
        settings_row["cellular"] or settings_row["wifi"] or settings_row["location_service"]
    )
    assert calls(variant)[1:3] == [
        ("set_low_battery_mode_status", {"on": False}),
        ("set_cellular_service_status", {"on": True}),
    ]
    assert len(calls(variant)) == 4
    assert milestone(variant, "variant_low_battery_off").after == []
    assert milestone(variant, "variant_cellular_on").after == ["variant_low_battery_off"]
    assert milestone(variant, "sent").after == ["found", "variant_cellular_on"]
    assert_valid(variant)


def test_lookup_around_the_device_needs_wifi_and_location() -> None:
    base = weather_here()
    made = {name: state_variant(base, name) for name in ("wifi_off", "location_off")}
    assert calls(made["wifi_off"])[0] == ("set_wifi_status", {"on": True})
    assert calls(made["location_off"])[0] == ("set_location_service_status", {"on": True})
    nested = state_variant(base, "low_battery")
    assert [name for name, _ in calls(nested)] == [
        "set_low_battery_mode_status",
        "set_wifi_status",
        "set_location_service_status",
        "search_weather_around_lat_lon",
    ]
    assert set(milestone(nested, "weather").after or []) == {
        "variant_wifi_on",
        "variant_location_on",
    }
    # a single tool call plus the inserted setters is a multiple tool call now
    assert nested.categories == ["multiple_tool_call", "single_user_turn", "state_dependency"]
    with pytest.raises(VariantSkipped, match="no reference call depends on cellular"):
        state_variant(base, "cellular_off")
    for variant in [*made.values(), nested]:
        assert_valid(variant)


def test_fix_goes_into_the_turn_that_needs_it() -> None:
    saved = {"name": "Lee Moreau", "phone_number": "+12125550199"}
    text = {"phone_number": "+12125550199", "content": "Saved your new number"}
    text_row = {"recipient_phone_number": text["phone_number"], "content": text["content"]}
    base = scenario(
        categories=["multiple_tool_call", "multiple_user_turn"],
        user={"script": ["Lee has a new number, +12125550199", "Text him that I saved it"]},
        reference=[
            {
                "user": "Lee has a new number, +12125550199",
                "calls": [{"name": "add_contact", "arguments": saved}],
                "reply": "Saved.",
            },
            {
                "user": "Text him that I saved it",
                "calls": [{"name": "send_message_with_phone_number", "arguments": text}],
                "reply": "Sent.",
            },
        ],
        milestones=[
            {
                "id": "saved",
                "constraints": [{"kind": "added", "table": "contacts", "rows": [saved]}],
            },
            {
                "id": "texted",
                "constraints": [
                    {"kind": "added", "table": "messages", "reference": "saved", "rows": [text_row]}
                ],
            },
        ],
    )
    variant = state_variant(base, "cellular_off")
    assert variant.reference[0].calls == base.reference[0].calls
    assert [c.name for c in variant.reference[1].calls] == [
        "set_cellular_service_status",
        "send_message_with_phone_number",
    ]
    assert milestone(variant, "saved").after == []
    assert milestone(variant, "texted").after == ["saved", "variant_cellular_on"]
    assert_valid(variant)


def test_variants_that_do_not_apply_are_skipped_quietly() -> None:
    already_off = text_lee(
        world={
            "domains": ["sandbox"],
            "clock": CLOCK,
            "tables": {"contacts": BOOK, "settings": [{"cellular": False}]},
        }
    )
    with pytest.raises(VariantSkipped, match="already starts") as info:
        state_variant(already_off, "cellular_off")
    assert not info.value.unsound
    only_contacts = scenario(
        world={"domains": ["contacts"], "clock": CLOCK, "tables": {"contacts": BOOK}},
        reference=[{"user": "hi", "calls": [{"name": "search_contacts", "arguments": {}}]}],
    )
    with pytest.raises(VariantSkipped, match="no device settings"):
        state_variant(only_contacts, "wifi_off")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            {
                "minefields": [
                    {"constraints": [{"kind": "tool_call", "tool": "set_cellular_service_status"}]}
                ]
            },
            "minefield '0' watches the settings",
        ),
        ({"tools": {"deny": ["set_cellular_service_status"]}}, "withholds"),
    ],
)
def test_unsound_adjustments_are_refused_and_marked(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(VariantSkipped, match=reason) as info:
        state_variant(text_lee(**change), "cellular_off")
    assert info.value.unsound


def test_guardrail_on_settings_and_reading_a_setting_are_unsound() -> None:
    guarded = text_lee()
    sent = milestone(guarded, "sent")
    guard = sent.constraints[0].model_validate(
        {"kind": "added", "table": "messages", "rows": [SENT]}
    )
    from toolplay.scenarios import GuardrailConstraint

    guarded.milestones[1] = sent.model_copy(
        update={"constraints": [guard, GuardrailConstraint(kind="guardrail", table="settings")]}
    )
    with pytest.raises(VariantSkipped, match="guardrail on settings") as info:
        state_variant(guarded, "cellular_off")
    assert info.value.unsound
    reads = text_lee()
    reads.reference[0].calls.insert(
        0,
        reads.reference[0]
        .calls[0]
        .model_copy(update={"name": "get_cellular_service_status", "arguments": {}}),
    )
    with pytest.raises(VariantSkipped, match="reads a setting") as info:
        state_variant(reads, "cellular_off")
    assert info.value.unsound


def test_expansion_ids_base_ids_categories_and_order() -> None:
    bases = [text_lee(), weather_here().model_copy(update={"id": "wx"})]
    expanded = expand_variants(bases)
    plain = ["base", "base~cellular_off", "base~low_battery"]
    plain += ["wx", "wx~wifi_off", "wx~location_off", "wx~low_battery"]
    expected = [
        name if aug == "none" else f"{name}@{aug}"
        for aug in AUGMENTATION_SETTINGS
        for name in plain
    ]
    assert [s.id for s in expanded.scenarios] == expected
    assert expanded.skipped == []
    for item in expanded.scenarios:
        assert item.base_id == item.id.split("~")[0].split("@")[0]
        assert item.augmentation == (item.id.split("@")[1] if "@" in item.id else None)
        assert ("state_dependency" in item.categories) == ("~" in item.id)
    twice = expand_variants(bases)
    assert [s.model_dump() for s in twice.scenarios] == [s.model_dump() for s in expanded.scenarios]


def test_expansion_refuses_a_base_that_is_already_a_variant() -> None:
    with pytest.raises(ScenarioError, match="variants are generated"):
        expand_variants([text_lee().model_copy(update={"id": "x~wifi_off"})])


def test_unsound_variants_are_reported_by_the_expansion() -> None:
    base = text_lee(tools={"deny": ["set_cellular_service_status"]})
    expanded = expand_variants([base], [AUGMENTATION_SETTINGS[0]])
    assert [s.id for s in expanded.scenarios] == ["base"]
    assert [v.variant_id for v in expanded.skipped] == ["base~cellular_off", "base~low_battery"]


def test_withheld_tool_never_comes_back_as_a_distraction() -> None:
    base = scenario(
        categories=["single_user_turn", "insufficient_information"],
        user={"script": ["Text Lee that I'm late"]},
        tools={"allow": ["search_contacts"]},
        reference=[{"user": "Text Lee that I'm late", "reply": "I can't send texts right now."}],
        milestones=[
            {"constraints": [{"kind": "message", "content": "I can't send texts right now."}]}
        ],
        minefields=[
            {"constraints": [{"kind": "tool_call", "tool": "send_message_with_phone_number"}]}
        ],
    )
    expanded = expand_variants([base])
    for item in expanded.scenarios:
        assert item.tools.deny == ["send_message_with_phone_number"]
        shown = offered_tools(item).names.values()
        assert "send_message_with_phone_number" not in shown
    everything = next(s for s in expanded.scenarios if s.augmentation == "distractors_all")
    assert len(offered_tools(everything).schemas) > 30


LOOKUPS: list[tuple[str, dict[str, Any]]] = [
    ("search_weather_around_lat_lon", {"days": 1}),
    ("search_weather_around_lat_lon", {"latitude": 40.7128, "longitude": -74.006}),
    ("search_stock", {"query": "AAPL"}),
    ("convert_currency", {"amount": 40, "from_currency_code": "EUR", "to_currency_code": "USD"}),
    ("search_location_around_lat_lon", {"location": "Golden Gate Bridge"}),
    ("get_current_location", {}),
    ("unit_conversion", {"amount": 3, "from_unit": "miles", "to_unit": "kilometers"}),
    ("send_message_with_phone_number", SEND),
    ("search_contacts", {"name": "Lee"}),
]
SWITCHES = st.fixed_dictionaries(
    {
        "cellular": st.booleans(),
        "wifi": st.booleans(),
        "location_service": st.booleans(),
        "low_battery_mode": st.just(False),
        "latitude": st.just(37.3349),
        "longitude": st.just(-122.009),
    }
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    turns=st.lists(
        st.lists(st.sampled_from(range(len(LOOKUPS))), min_size=1, max_size=3),
        min_size=1,
        max_size=2,
    ),
    start=SWITCHES,
)
def test_every_generated_variant_validates_and_defeats_no_call(
    turns: list[list[int]], start: dict[str, bool]
) -> None:
    reference, milestones = [], []
    for t, picks in enumerate(turns):
        chosen = [LOOKUPS[p] for p in picks]
        reference.append(
            {
                "user": f"request {t}",
                "calls": [{"name": n, "arguments": a} for n, a in chosen],
                "reply": f"done {t}",
            }
        )
        for n, a in chosen:
            milestones.append({"constraints": [{"kind": "tool_call", "tool": n, "arguments": a}]})
    base = scenario(
        world={
            "domains": ["sandbox"],
            "clock": CLOCK,
            "tables": {"contacts": BOOK, "settings": [start]},
        },
        user={"script": [turn["user"] for turn in reference]},
        reference=reference,
        milestones=milestones,
    )
    # the drawn base must itself be sound (no lookup while its setting is off)
    assume(play(base, OracleAssistant())[0] == 1.0)
    expanded = expand_variants([base], ["none"])
    event(f"variants: {len(expanded.scenarios) - 1}")
    for variant in expanded.scenarios[1:]:
        assert_valid(variant)
        restores = [m for m in variant.milestones if (m.id or "").startswith("variant_")]
        assert restores and all(
            isinstance(m.constraints[0], StateConstraint) and m.constraints[0].table == "settings"
            for m in restores
        )
