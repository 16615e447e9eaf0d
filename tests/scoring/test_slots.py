"""AutoDE slot metrics: exact values, empty predictions dropped, failure reasons."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolplay.messages import (
    Message,
    ToolCall,
    Trajectory,
)
from toolplay.scoring._slots import (
    across_trials,
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


def test_empty_predicted_values_are_dropped_and_both_empty_is_one() -> None:
    s = slot_scores({"city": "Paris", "note": None, "tags": []}, {"city": "Paris"})
    assert (s.precision, s.recall) == (1.0, 1.0)
    assert slot_scores({}, {}).f1 == 1.0
    assert slot_scores({"x": None}, {}).f1 == 1.0
    assert slot_scores({}, {"city": "Paris"}).f1 == 0.0


def test_values_compare_as_json() -> None:
    assert slot_scores({"n": 3.0}, {"n": 3}).f1 == 1.0
    assert slot_scores({"n": "3"}, {"n": 3}).f1 == 0.0
    assert slot_scores({"l": [1, 2]}, {"l": [2, 1]}).f1 == 0.0


def trajectory(*calls: ToolCall, termination: str = "script_exhausted") -> Trajectory:
    messages = [
        Message(index=i, sender="assistant", recipient="environment", tool_calls=(c,))
        for i, c in enumerate(calls)
    ]
    return Trajectory(scenario_id="x", messages=messages, termination=termination)  # type: ignore[arg-type]


def test_failure_reasons() -> None:
    label = {"city": "Paris"}
    assert score_dialogue(trajectory(), "get_weather", label).failure == "never_called"
    assert (
        score_dialogue(trajectory(termination="turn_limit"), "get_weather", label).failure
        == "round_limit"
    )
    wrong = ToolCall(id="1", name="get_time", arguments="{}")
    assert score_dialogue(trajectory(wrong), "get_weather", label).failure == "wrong_function"
    broken = ToolCall(id="1", name="get_weather", arguments="{city: Paris")
    assert score_dialogue(trajectory(broken), "get_weather", label).failure == "parse_failure"
    first = ToolCall.from_args("1", "get_weather", {"city": "Rome"})
    last = ToolCall.from_args("2", "get_weather", {"city": "Paris"})
    result = score_dialogue(trajectory(first, last), "get_weather", label)
    assert result.failure is None and result.f1 == 1.0  # the final call counts


def test_macro_average_and_trials() -> None:
    scores = [slot_scores({"a": 1}, {"a": 1}), slot_scores({"a": 2}, {"a": 1})]
    assert macro_average(scores) == {"slot_precision": 0.5, "slot_recall": 0.5, "slot_f1": 0.5}
    spread = across_trials([{"slot_f1": 0.5}, {"slot_f1": 1.0}])
    assert spread["slot_f1"] == {"mean": 0.75, "std": 0.25}


@given(
    st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 3), max_size=6),
    st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 3), max_size=6),
)
def test_metrics_are_bounded_and_f1_between_p_and_r(pred: dict, label: dict) -> None:
    s = slot_scores(pred, label)
    for value in (s.precision, s.recall, s.f1):
        assert 0.0 <= value <= 1.0
    assert min(s.precision, s.recall) - 1e-12 <= s.f1 <= max(s.precision, s.recall) + 1e-12
