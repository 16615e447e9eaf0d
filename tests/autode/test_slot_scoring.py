"""The `slots` scorer and its run summary: AutoDE's slot metrics on recorded trajectories."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import support
from support import load_suite, parse_scenario, score_slots, score_trajectory
from toolplay.catalog import build_catalog
from toolplay.messages import (
    Message,
    ToolCall,
    Trajectory,
)
from toolplay.methods import autode
from toolplay.methods.autode import CallRecord, SlotEvidence, aggregate_slots, slot_label
from toolplay.runs import RunConfig, SettingError, resolve_settings
from toolplay.scenarios import Scenario
from toolplay.scoring import ScenarioScore, ScoringContext, ScoringSettings

SUITE = {s.id: s for s in load_suite("autode").scenarios}
CONVERT = SUITE["autode_units_miles_to_km"]  # unit_conversion(5, miles, kilometers)
CONTACT = SUITE["autode_add_contact_conference"]  # add_contact(name, phone_number); is_self=False
STOCK = SUITE["autode_stock_apple"]  # search_stock(Apple), accepts AAPL


def played(
    *calls: tuple[str, dict[str, Any] | str],
    termination: str = "script_exhausted",
    errors: dict[int, str] | None = None,
    renamed: dict[str, str] | None = None,
) -> Trajectory:
    """A recorded conversation where the assistant made `calls`, one message each."""
    messages = [
        Message(index=0, sender="system", recipient="assistant", content="prompt"),
        Message(index=1, sender="user", recipient="assistant", content="hi"),
    ]
    for number, (name, arguments) in enumerate(calls):
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        call = ToolCall(id=f"c{number}", name=name, arguments=text)
        messages.append(
            Message(
                index=len(messages), sender="assistant", recipient="environment", tool_calls=(call,)
            )
        )
        error = (errors or {}).get(number)
        messages.append(
            Message(
                index=len(messages),
                sender="environment",
                recipient="assistant",
                tool_call_id=call.id,
                tool_name=name,
                result=None if error else "ok",
                error=error,
                error_type="tool_error" if error else None,
            )
        )
    messages.append(
        Message(index=len(messages), sender="assistant", recipient="user", content="Done.")
    )
    return Trajectory(
        scenario_id="s",
        messages=messages,
        termination=termination,  # type: ignore[arg-type]
        tool_names=renamed or {},
    )


def test_the_labelled_call_scores_one_with_its_evidence() -> None:
    result = score_slots(
        CONVERT,
        played(("unit_conversion", {"amount": 5, "from_unit": "miles", "to_unit": "kilometers"})),
    )
    assert result.score == 1.0 and result.evaluation == "slots"
    assert support.details(result)["failure"] is None
    assert support.details(result)["correct"] == ["amount", "from_unit", "to_unit"]
    assert support.details(result)["predicted"]["name"] == "unit_conversion"
    assert support.details(result)["label"]["arguments"]["to_unit"] == "kilometers"
    assert "validation_problems" not in support.details(result)


LENIENT = ScoringContext(settings=ScoringSettings(slot_matching="lenient"))


def lenient(scenario: Scenario, trajectory: Trajectory) -> ScenarioScore:
    """The slot score under `slot_matching=lenient`."""
    return autode.score_slots(support.setup(scenario), trajectory, LENIENT)


def test_wrong_and_missing_slots_lower_precision_and_recall() -> None:
    wrong = score_slots(
        CONVERT, played(("unit_conversion", {"amount": 5, "from_unit": "miles", "to_unit": "m"}))
    )
    assert support.details(wrong)["slot_precision"] == pytest.approx(2 / 3)
    assert support.details(wrong)["slot_recall"] == pytest.approx(2 / 3)
    assert wrong.score == pytest.approx(2 / 3) and support.details(wrong)["wrong"] == ["to_unit"]
    short = played(("unit_conversion", {"amount": 5.0, "from_unit": "mi"}))
    exact = support.details(score_slots(CONVERT, short))
    assert exact["slot_precision"] == 0.5  # 5.0 == 5, but "mi" is not "miles"
    assert exact["slot_recall"] == pytest.approx(1 / 3)
    assert exact["missing"] == ["to_unit"] and exact["matching"] == "exact"
    loose = lenient(CONVERT, short)
    assert support.details(loose)["slot_precision"] == 1.0  # "mi" is an accepted value
    assert support.details(loose)["slot_recall"] == pytest.approx(2 / 3)
    assert loose.score == pytest.approx(0.8) and support.details(loose)["matching"] == "lenient"


def test_lenient_matching_forgives_declared_defaults_exact_matching_does_not() -> None:
    label = {"name": "Adaeze Okafor", "phone_number": "+13105550128"}
    assert score_slots(CONTACT, played(("add_contact", label))).score == 1.0
    explicit = played(("add_contact", {**label, "is_self": False}))
    assert support.details(score_slots(CONTACT, explicit))["slot_precision"] == pytest.approx(2 / 3)
    assert lenient(CONTACT, explicit).score == 1.0
    off = lenient(CONTACT, played(("add_contact", {**label, "is_self": True})))
    assert support.details(off)["slot_precision"] == pytest.approx(2 / 3)
    weather = SUITE["autode_weather_today_here"]  # label: no slots (today, here)
    today = played(("search_weather_around_lat_lon", {"days": 0}))
    assert score_slots(weather, today).score == 0.0  # one slot vs none
    assert lenient(weather, today).score == 1.0
    tomorrow = played(("search_weather_around_lat_lon", {"days": 1}))
    assert lenient(weather, tomorrow).score == 0.0


def test_accepted_alternatives_count_only_under_lenient_matching() -> None:
    ticker = played(("search_stock", {"query": "AAPL"}))
    assert score_slots(STOCK, ticker).score == 0.0
    assert lenient(STOCK, ticker).score == 1.0
    assert lenient(STOCK, played(("search_stock", {"query": "APPLE COMPUTER"}))).score == 0.0


def test_an_unknown_matching_is_refused() -> None:
    with pytest.raises(ValueError, match="slot_matching"):
        autode.SlotSettings.model_validate({"slot_matching": "fuzzy"})
    config = RunConfig.model_validate({"scoring": {"slot_matching": "fuzzy"}})
    with pytest.raises(SettingError, match="slot_matching: input should be 'exact' or 'lenient'"):
        resolve_settings(config, build_catalog(installed=False))


def test_null_and_empty_predicted_values_are_dropped() -> None:
    result = score_slots(
        CONVERT,
        played(
            (
                "unit_conversion",
                {
                    "amount": 5,
                    "from_unit": "miles",
                    "to_unit": "kilometers",
                    "note": None,
                    "extra": "",
                },
            )
        ),
    )
    assert result.score == 1.0


def test_failures_have_reasons_and_score_zero() -> None:
    cases = {
        "never_called": played(),
        "round_limit": played(termination="turn_limit"),
        "wrong_function": played(("convert_currency", {"amount": 5})),
        "parse_failure": played(("unit_conversion", "{amount: 5")),
    }
    for reason, trajectory in cases.items():
        result = score_slots(CONVERT, trajectory)
        assert result.score == 0.0 and support.details(result)["failure"] == reason, reason
        assert support.details(result)["slot_recall"] == 0.0


def test_the_first_call_to_the_label_function_is_the_prediction() -> None:
    right = ("unit_conversion", {"amount": 5, "from_unit": "miles", "to_unit": "kilometers"})
    wrong = ("unit_conversion", {"amount": 5, "from_unit": "miles", "to_unit": "meters"})
    after = score_slots(CONVERT, played(right, ("get_current_timestamp", {})))
    assert after.score == 1.0  # a harmless read afterwards changes nothing
    lookups_first = score_slots(CONVERT, played(("get_current_timestamp", {}), right))
    assert lookups_first.score == 1.0
    corrected = score_slots(CONVERT, played(wrong, right))
    assert corrected.score == pytest.approx(2 / 3)  # the wrong call counts, not the correction
    assert support.details(corrected)["predicted"]["arguments"]["to_unit"] == "meters"


def test_renamed_tools_are_read_back_to_their_real_names() -> None:
    trajectory = played(
        ("tool_7", {"amount": 5, "from_unit": "miles", "to_unit": "kilometers"}),
        renamed={"tool_7": "unit_conversion"},
    )
    result = score_slots(CONVERT, trajectory)
    assert result.score == 1.0 and support.details(result)["predicted"]["name"] == "unit_conversion"


def test_a_refused_label_call_is_a_validation_problem() -> None:
    trajectory = played(
        ("unit_conversion", {"amount": 5, "from_unit": "miles", "to_unit": "kilometers"}),
        errors={0: "unknown unit"},
    )
    result = score_slots(CONVERT, trajectory)
    assert support.details(result)["validation_problems"] == [
        "the label call unit_conversion failed: unknown unit"
    ]


def test_without_metadata_the_last_reference_call_is_the_label() -> None:
    scenario = parse_scenario(
        {
            "id": "plain_slots",
            "evaluation": "slots",
            "world": {"domains": ["settings"]},
            "reference": [
                {
                    "user": "Wifi off",
                    "calls": [
                        {"name": "get_wifi_status"},
                        {"name": "set_wifi_status", "arguments": {"on": False}},
                    ],
                }
            ],
        },
        "test",
    )
    label = slot_label(scenario)
    assert label is not None and (label.name, label.arguments) == (
        "set_wifi_status",
        {"on": False},
    )
    assert score_slots(scenario, played(("set_wifi_status", {"on": False}))).score == 1.0
    assert score_slots(scenario, played(("set_wifi_status", {"on": True}))).score == 0.0
    bare = scenario.model_copy(update={"reference": []})
    assert score_slots(bare, played()).score is None


def test_slots_are_registered_for_dispatch() -> None:
    scorer = support.CATALOG.scorer("slots")
    assert scorer.score is autode.score_slots and scorer.aggregate is aggregate_slots
    result = score_trajectory(CONVERT, played(("unit_conversion", {"amount": 5})))
    assert isinstance(result.evidence, SlotEvidence)
    assert result.evidence.slot_recall == pytest.approx(1 / 3)


def record(scenario: Scenario, trial: int, f1: float, failure: str | None = None) -> ScenarioScore:
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trial,
        evaluation="slots",
        score=f1,
        evidence=SlotEvidence(
            slot_precision=f1,
            slot_recall=f1,
            slot_f1=f1,
            failure=failure,
            correct=[],
            wrong=[],
            missing=[],
            label=CallRecord(name="unit_conversion", arguments={}),
            predicted=None,
        ),
    )


def test_the_summary_macro_averages_counts_failures_and_spreads_over_trials() -> None:
    records = [
        (CONVERT, record(CONVERT, 0, 1.0)),
        (STOCK, record(STOCK, 0, 0.0, "never_called")),
        (CONVERT, record(CONVERT, 1, 0.5)),
        (STOCK, record(STOCK, 1, 0.0, "wrong_function")),
    ]
    summary = support.summarise(records)
    metrics = summary["metrics"]
    assert metrics["slot_f1"] == pytest.approx(0.375)
    assert metrics["slot_precision"] == pytest.approx(0.375)
    assert metrics["dialogues"] == 4
    assert summary["sections"]["slots"]["failures"] == {
        "never_called": 1,
        "wrong_function": 1,
        "parse_failure": 0,
        "round_limit": 0,
        "assistant_error": 0,
    }
    assert metrics["trials"] == 2
    assert summary["sections"]["slots"]["over_trials"]["slot_f1"] == {
        "mean": pytest.approx(0.375),
        "std": pytest.approx(0.125 * 2**0.5),  # sample std of the trial means 0.5, 0.25
    }
    # Both dialogues are single-turn single-call: the category counts scenarios and trials
    # apart; the tools' domains (mathutil, stocks) are no category (the run's by_domain).
    assert summary["by_category"]["single_tool_call"] == {
        "slot_precision": 0.375,
        "slot_recall": 0.375,
        "slot_f1": 0.375,
        "scenarios": 2,
        "trials": 4,
    }
    assert set(summary["by_category"]) == {"single_user_turn", "single_tool_call"}
    single = support.summarise(records[:2])
    assert single["sections"]["slots"]["over_trials"]["slot_f1"] == {"mean": 0.5, "std": None}
    assert single["metrics"]["slot_f1"] == 0.5


def test_unscored_records_are_left_out_of_the_summary() -> None:
    error = ScenarioScore(scenario_id=CONVERT.id, evaluation="slots", score=None)
    summary = support.summarise([(CONVERT, error), (STOCK, record(STOCK, 0, 1.0))])
    assert summary["metrics"]["dialogues"] == 1 and summary["metrics"]["slot_f1"] == 1.0


SLOTS = {"amount": 5, "from_unit": "miles", "to_unit": "kilometers"}


@given(
    keep=st.sets(st.sampled_from(sorted(SLOTS))),
    wrong=st.sets(st.sampled_from(sorted(SLOTS))),
    extra=st.dictionaries(st.sampled_from(["x", "y"]), st.integers(1, 9)),
)
def test_precision_and_recall_count_slots_exactly(
    keep: set[str], wrong: set[str], extra: dict[str, int]
) -> None:
    predicted: dict[str, Any] = {k: SLOTS[k] for k in keep}
    predicted.update({k: "zzz" for k in wrong})
    predicted.update(extra)
    result = score_slots(CONVERT, played(("unit_conversion", predicted)))
    correct = len(keep - wrong)
    details = support.details(result)
    if predicted:
        assert details["slot_precision"] == pytest.approx(correct / len(predicted))
    assert details["slot_recall"] == pytest.approx(correct / 3)
    assert 0.0 <= (result.score or 0.0) <= 1.0
