"""AutoDE slot metrics by the reference's rules: cleaning, exact values, the first call."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolplay.messages import Message, ToolCall, Trajectory
from toolplay.methods.autode._slots import (
    across_trials,
    clean_prediction,
    macro_average,
    score_dialogue,
    slot_scores,
)


def test_exact_match_is_perfect() -> None:
    s = slot_scores({"city": "Paris", "days": 3}, {"city": "Paris", "days": 3})
    assert (s.precision, s.recall, s.f1) == (1.0, 1.0, 1.0)


def test_partial_and_wrong_values() -> None:
    s = slot_scores({"city": "Paris", "days": 4, "unit": "C"}, {"city": "Paris", "days": 3})
    assert s.precision == pytest.approx(1 / 3)
    assert s.recall == pytest.approx(1 / 2)
    assert s.f1 == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))
    assert s.correct == ("city",) and s.wrong == ("days", "unit") and s.missing == ()


def test_both_empty_is_one_and_one_empty_is_zero() -> None:
    assert slot_scores({}, {}).f1 == 1.0
    assert slot_scores({}, {"city": "Paris"}).f1 == 0.0
    assert slot_scores({"city": "Paris"}, {}).f1 == 0.0


def test_cleaning_keeps_booleans_and_real_strings_only() -> None:
    raw = {
        "functionName": "Navigate",
        "deviceType": "TV",
        "estimateTime": False,
        "blank": "  ",
        "nothing": None,
        "word_null": "NuLL",
        "number": 3,
        "list": ["a"],
        "object": {"a": 1},
    }
    assert clean_prediction(raw) == {"deviceType": "TV", "estimateTime": False}
    assert clean_prediction(raw, "json") == {
        "deviceType": "TV",
        "estimateTime": False,
        "number": 3,
        "list": ["a"],
        "object": {"a": 1},
    }
    assert clean_prediction({"l": [], "o": {}}, "json") == {}


def test_values_compare_by_plain_equality() -> None:
    assert slot_scores({"d": "tv"}, {"d": "TV"}).f1 == 0.0  # no normalisation
    assert slot_scores({"n": 3.0}, {"n": 3}).f1 == 1.0  # Python's ==, as the reference
    assert slot_scores({"n": "3"}, {"n": 3}).f1 == 0.0
    assert slot_scores({"b": True}, {"b": 1}).f1 == 0.0  # a boolean is never a number
    assert slot_scores({"b": True}, {"b": True}).f1 == 1.0


def trajectory(*calls: ToolCall, termination: str = "script_exhausted") -> Trajectory:
    messages = [
        Message(index=i, sender="assistant", recipient="environment", tool_calls=(c,))
        for i, c in enumerate(calls)
    ]
    return Trajectory(scenario_id="x", messages=messages, termination=termination)  # type: ignore[arg-type]


def test_failure_codes_and_the_reference_reasons() -> None:
    label = {"city": "Paris"}
    never = score_dialogue(trajectory(), "get_weather", label)
    assert (never.failure, never.reason) == ("never_called", "")
    limit = score_dialogue(trajectory(termination="turn_limit"), "get_weather", label)
    assert (limit.failure, limit.reason) == ("round_limit", "Round limit reached")
    wrong = ToolCall(id="1", name="get_time", arguments="{}")
    assert score_dialogue(trajectory(wrong), "get_weather", label).failure == "wrong_function"
    broken = ToolCall(id="1", name="get_weather", arguments="{city: Paris")
    parsed = score_dialogue(trajectory(broken), "get_weather", label)
    assert parsed.failure == "parse_failure"
    assert parsed.reason == "Arguments parse failed: {city: Paris"
    listed = ToolCall(id="1", name="get_weather", arguments='["Paris"]')
    assert score_dialogue(trajectory(listed), "get_weather", label).failure == "parse_failure"


def test_the_first_call_to_the_label_function_is_scored_not_a_later_correction() -> None:
    label = {"city": "Paris"}
    lookup = ToolCall.from_args("0", "get_time", {})
    first = ToolCall.from_args("1", "get_weather", {"city": "Rome"})
    last = ToolCall.from_args("2", "get_weather", {"city": "Paris"})
    result = score_dialogue(trajectory(lookup, first, last), "get_weather", label)
    assert result.failure is None and result.f1 == 0.0 and result.wrong == ("city",)
    right_then_read = score_dialogue(trajectory(last, lookup), "get_weather", label)
    assert right_then_read.f1 == 1.0


def test_any_name_scores_the_first_call_whatever_its_name() -> None:
    label = {"deviceType": "TV"}
    misnamed = ToolCall.from_args("1", "TurnOnTV", {"deviceType": "TV"})
    assert score_dialogue(trajectory(misnamed), "TurnOnBluetooth", label, any_name=True).f1 == 1.0
    assert score_dialogue(trajectory(misnamed), "TurnOnBluetooth", label).f1 == 0.0


def test_a_prediction_cleaned_to_nothing_scores_zero_but_is_no_failure() -> None:
    call = ToolCall.from_args("1", "Api", {"deviceType": None, "count": 3})
    result = score_dialogue(trajectory(call), "Api", {"deviceType": "TV"})
    assert result.failure is None and result.f1 == 0.0


def test_macro_average_and_sample_spread_over_trials() -> None:
    scores = [slot_scores({"a": 1}, {"a": 1}), slot_scores({"a": 2}, {"a": 1})]
    assert macro_average(scores) == {"slot_precision": 0.5, "slot_recall": 0.5, "slot_f1": 0.5}
    spread = across_trials([{"slot_f1": 0.5}, {"slot_f1": 1.0}, {"slot_f1": 0.0}])
    assert spread["slot_f1"]["mean"] == 0.5
    assert spread["slot_f1"]["std"] == pytest.approx(0.5)  # ddof 1: sqrt(0.5 / 2)
    assert across_trials([{"slot_f1": 0.5}])["slot_f1"] == {"mean": 0.5, "std": None}


slot_values = st.sampled_from(["a", "b", "", True, False])
slot_maps = st.dictionaries(st.sampled_from("abcd"), slot_values, max_size=4)


@given(slot_maps, slot_maps)
def test_metrics_match_the_definition(
    predicted: dict[str, object], label: dict[str, object]
) -> None:
    s = slot_scores(predicted, label)
    if not predicted and not label:
        assert (s.precision, s.recall, s.f1) == (1.0, 1.0, 1.0)
        return
    if not predicted or not label:
        assert (s.precision, s.recall, s.f1) == (0.0, 0.0, 0.0)
        return
    correct = sum(
        1
        for k, v in predicted.items()
        if k in label and type(v) is type(label[k]) and v == label[k]
    )
    p, r = correct / len(predicted), correct / len(label)
    assert (s.precision, s.recall) == (p, r)
    assert s.f1 == (2 * p * r / (p + r) if p + r else 0.0)
    assert 0.0 <= s.f1 <= 1.0


@given(st.lists(st.floats(0, 1), min_size=2, max_size=6))
def test_spread_is_the_sample_standard_deviation(values: list[float]) -> None:
    spread = across_trials([{"slot_f1": v} for v in values])["slot_f1"]
    assert spread["std"] == pytest.approx(statistics.stdev(values))
