"""The exporter's translation of reference milestones, on stand-ins for the reference's objects.

The exporter runs under the reference package (Python 3.9); its translation is plain Python
over duck-typed objects, so it is tested here without the reference installed: each reference
construct maps to its toolplay constraint, and what has no exact form is refused, not dropped.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest

EXPORTER = Path(__file__).resolve().parents[2] / "scripts" / "toolsandbox_export"
sys.path.insert(0, str(EXPORTER))
import _milestones as tm  # noqa: E402
import _scenario as ts  # noqa: E402

sys.path.remove(str(EXPORTER))


class Frame:
    """What the exporter reads of a polars DataFrame."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        self.height = len(rows)

    def to_dicts(self) -> list[dict[str, Any]]:
        return self.rows


# Stand-ins named as the reference's similarity functions (the exporter goes by name).
def snapshot_similarity() -> None: ...
def addition_similarity() -> None: ...
def removal_similarity() -> None: ...
def update_similarity() -> None: ...
def guardrail_similarity() -> None: ...
def tool_trace_dependant_similarity() -> None: ...
def column_exact_match_similarity() -> None: ...
def column_rouge_l_similarity() -> None: ...
def column_contains_similarity() -> None: ...
def column_close_similarity(atol_dict: dict[str, float] | None = None) -> None: ...
def column_one_similarity() -> None: ...
def column_tool_trace_exact_match_similarity(atol_dict: dict[str, float] | None = None) -> None: ...
def days_extractor() -> None: ...
def result_to_timestamp0_extractor() -> None: ...
def search_weather_around_lat_lon_temperature_extractor() -> None: ...
def current_temperature_extractor() -> None: ...


BUS = {
    "sender": column_exact_match_similarity,
    "recipient": column_exact_match_similarity,
    "content": column_rouge_l_similarity,
    "tool_trace": column_tool_trace_exact_match_similarity,
}
MESSAGING = {
    "recipient_phone_number": column_exact_match_similarity,
    "content": column_rouge_l_similarity,
    "creation_timestamp": column_exact_match_similarity,
    "message_id": column_exact_match_similarity,
}


@dataclass
class Constraint:
    database_namespace: str
    snapshot_constraint: Any
    target_dataframe: Frame | None = None
    column_similarity_measure: dict[str, Any] = field(default_factory=dict)
    reference_milestone_node_index: int | None = None


def test_a_tool_trace_row_is_a_tool_call_with_alternatives_and_tolerances() -> None:
    trace = (
        '[{"tool_name": "search_reminder", "arguments": {"reminder_timestamp_lowerbound": 0}},'
        ' {"tool_name": "search_reminder", "arguments": {"content": "milk"}}]'
    )
    measures = {
        **BUS,
        "tool_trace": partial(
            column_tool_trace_exact_match_similarity,
            atol_dict={"reminder_timestamp_lowerbound": float("inf")},
        ),
    }
    row = {"sender": "EXECUTION_ENVIRONMENT", "recipient": "AGENT", "tool_trace": trace}
    got = tm.constraint(Constraint("SANDBOX", snapshot_similarity, Frame([row]), measures), [], {})
    assert got == [
        {
            "kind": "tool_call",
            "alternatives": [
                {
                    "tool": "search_reminder",
                    "arguments": {
                        "reminder_timestamp_lowerbound": {
                            "close": 0,
                            "tolerance": sys.float_info.max,
                        }
                    },
                },
                {"tool": "search_reminder", "arguments": {"content": "milk"}},
            ],
        }
    ]


def test_a_reply_row_is_a_message_with_its_similarity() -> None:
    row = {"sender": "AGENT", "recipient": "USER", "content": "Good, keep me posted"}
    plain = tm.constraint(Constraint("SANDBOX", snapshot_similarity, Frame([row]), BUS), [], {})
    assert plain == [
        {
            "kind": "message",
            "sender": "assistant",
            "recipient": "user",
            "content": "Good, keep me posted",
        }
    ]
    measures = {**BUS, "content": column_contains_similarity}
    got = tm.constraint(Constraint("SANDBOX", snapshot_similarity, Frame([row]), measures), [], {})
    assert got[0]["content"] == {"contains": "Good, keep me posted"}


def test_table_changes_keep_their_reference_and_column_similarities() -> None:
    rows = [{"recipient_phone_number": "+1", "content": "hi", "message_id": "x"}]
    measures = {**MESSAGING, "message_id": column_one_similarity}
    added = tm.constraint(
        Constraint("MESSAGING", addition_similarity, Frame(rows), measures, 0), ["0"], {}
    )
    assert added == [
        {
            "kind": "added",
            "table": "messages",
            "rows": [{"recipient_phone_number": "+1", "content": "hi"}],  # `one`: unchecked
            "reference": "0",
        }
    ]
    removed = tm.constraint(
        Constraint("MESSAGING", removal_similarity, Frame(rows), MESSAGING), [], {}
    )
    assert removed[0]["kind"] == "removed" and removed[0]["reference"] == "start"
    exact_text = {**MESSAGING, "content": column_exact_match_similarity}
    state = tm.constraint(
        Constraint("MESSAGING", snapshot_similarity, Frame(rows), exact_text), [], {}
    )
    assert state[0]["kind"] == "state" and state[0]["rows"][0]["content"] == {"exact": "hi"}


def test_a_value_flowing_from_a_result_is_a_flow() -> None:
    trace = '{"tool_name": "timestamp_diff", "arguments": {}}'
    row = {"sender": "EXECUTION_ENVIRONMENT", "recipient": "AGENT", "tool_trace": trace}
    function = partial(
        tool_trace_dependant_similarity,
        fill_to="tool_trace",
        extractor=result_to_timestamp0_extractor,
    )
    measures = {
        **BUS,
        "tool_trace": partial(
            column_tool_trace_exact_match_similarity, atol_dict={"timestamp_0": 1}
        ),
    }
    got = tm.constraint(Constraint("SANDBOX", function, Frame([row]), measures, 0), ["0"], {})
    assert got == [
        {"kind": "tool_call", "tool": "timestamp_diff", "arguments": {}},
        {
            "kind": "flow",
            "from": "0",
            "path": "",
            "tool": "timestamp_diff",
            "argument": "timestamp_0",
            "similarity": "close",
            "tolerance": 1.0,
        },
    ]
    reply = {"sender": "AGENT", "recipient": "USER", "content": "It is {days} days"}
    template = partial(tool_trace_dependant_similarity, fill_to="content", extractor=days_extractor)
    got = tm.constraint(
        Constraint("SANDBOX", template, Frame([reply]), BUS, 2), ["0", "1", "2"], {}
    )
    assert got == [
        {
            "kind": "flow",
            "from": "2",
            "path": "days",
            "template": "It is {value} days",
            "similarity": "rouge",
        }
    ]


def test_a_normalising_extractor_is_a_flow_with_formats(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference writes the value in several precisions and keeps the best match."""
    monkeypatch.setattr(tm, "value_formats", lambda: [".0f", ".1f", ".2f", ".3f"])
    reply = {"sender": "AGENT", "recipient": "USER", "content": "{temperature} degrees"}
    normalising = partial(
        tool_trace_dependant_similarity,
        fill_to="content",
        extractor=search_weather_around_lat_lon_temperature_extractor,
    )
    got = tm.constraint(Constraint("SANDBOX", normalising, Frame([reply]), BUS, 0), ["0"], {})
    assert got == [
        {
            "kind": "flow",
            "from": "0",
            "path": "current_temperature",
            "template": "{value} degrees",
            "similarity": "rouge",
            "formats": [".0f", ".1f", ".2f", ".3f"],
        }
    ]


def test_a_value_filled_into_alternative_calls_is_alternatives_and_a_flow() -> None:
    trace = (
        '[{"tool_name": "unit_conversion", "arguments": {"from_unit": "celsius"}},'
        ' {"tool_name": "unit_conversion", "arguments": {"from_unit": "Celsius"}}]'
    )
    row = {"sender": "EXECUTION_ENVIRONMENT", "recipient": "AGENT", "tool_trace": trace}
    function = partial(
        tool_trace_dependant_similarity,
        fill_to="tool_trace",
        extractor=current_temperature_extractor,
    )
    got = tm.constraint(Constraint("SANDBOX", function, Frame([row]), BUS, 0), ["0"], {})
    assert got[0]["kind"] == "tool_call" and len(got[0]["alternatives"]) == 2
    assert got[1] == {
        "kind": "flow",
        "from": "0",
        "path": "current_temperature",
        "tool": "unit_conversion",
        "argument": "amount",
    }


def test_what_has_no_exact_form_is_refused() -> None:
    mixed = (
        '[{"tool_name": "unit_conversion", "arguments": {}},'
        ' {"tool_name": "convert_currency", "arguments": {}}]'
    )
    row = {"sender": "EXECUTION_ENVIRONMENT", "recipient": "AGENT", "tool_trace": mixed}
    function = partial(
        tool_trace_dependant_similarity,
        fill_to="tool_trace",
        extractor=current_temperature_extractor,
    )
    with pytest.raises(tm.Inexact, match="several tools"):
        tm.constraint(Constraint("SANDBOX", function, Frame([row]), BUS, 0), ["0"], {})
    reply = {"sender": "AGENT", "recipient": "USER", "content": "{temperature} degrees"}
    with pytest.raises(tm.Inexact, match="several target rows"):
        two = Frame([reply, reply])
        tm.constraint(Constraint("SANDBOX", snapshot_similarity, two, BUS), [], {})


def test_a_tool_the_milestones_need_is_offered_and_the_fix_recorded() -> None:
    scenario = {
        "tools": {"allow": ["search_weather_around_lat_lon"]},
        "milestones": [
            {"constraints": [{"kind": "tool_call", "tool": "search_weather_around_lat_lon"}]},
            {"constraints": [{"kind": "flow", "tool": "unit_conversion", "argument": "amount"}]},
        ],
        "metadata": {"toolsandbox": {}},
    }
    fixed = ts.offer_milestone_tools(scenario, deny=[])
    assert scenario["tools"]["allow"] == ["search_weather_around_lat_lon", "unit_conversion"]
    assert fixed and "unit_conversion" in scenario["metadata"]["toolsandbox"]["fixed"][0]
    assert ts.offer_milestone_tools(scenario, deny=[]) == []


@dataclass
class Milestone:
    snapshot_constraints: list[Constraint]
    guardrail_database_list: list[str] | None = None


@dataclass
class Matcher:
    milestones: list[Milestone]
    edge_list: list[tuple[int, int]] | None = None


def test_implicit_guardrails_are_left_to_toolplay_and_narrowing_is_kept() -> None:
    reply = {"sender": "AGENT", "recipient": "USER", "content": "done"}
    first = Milestone(
        [
            Constraint("SANDBOX", snapshot_similarity, Frame([reply]), BUS),
            Constraint("CONTACT", guardrail_similarity, None, {}, 0),
        ],
        ["SANDBOX", "CONTACT", "MESSAGING", "REMINDER"],  # SETTING excluded
    )
    second = Milestone([Constraint("SANDBOX", snapshot_similarity, Frame([reply]), BUS)], None)
    out = tm.milestones(Matcher([first, second], [(0, 1)]), {})
    assert [m["id"] for m in out] == ["0", "1"] and out[1]["after"] == ["0"]
    assert [c["kind"] for c in out[0]["constraints"]] == ["message"]  # no guardrail copied
    assert out[0]["guardrail_exclude"] == ["settings"] and "guardrail_exclude" not in out[1]


def test_the_user_side_splits_demonstrations_briefing_and_first_message() -> None:
    instruction = "Play a user. Your task: "
    rows = [
        {
            "sender": "SYSTEM",
            "recipient": "EXECUTION_ENVIRONMENT",
            "content": "import x",
            "visible_to": None,
        },
        {"sender": "SYSTEM", "recipient": "AGENT", "content": "PROMPT", "visible_to": None},
        {
            "sender": "SYSTEM",
            "recipient": "USER",
            "content": instruction + "demo goal",
            "visible_to": ["USER"],
        },
        {"sender": "USER", "recipient": "AGENT", "content": "demo ask", "visible_to": ["USER"]},
        {
            "sender": "USER",
            "recipient": "EXECUTION_ENVIRONMENT",
            "content": "end_conversation()",
            "visible_to": ["USER"],
        },
        {
            "sender": "SYSTEM",
            "recipient": "USER",
            "content": instruction + "real goal",
            "visible_to": None,
        },
        {"sender": "USER", "recipient": "AGENT", "content": "first words", "visible_to": None},
    ]
    user, demos = ts.user_side(rows, instruction, "PROMPT")
    assert user == {"script": ["first words"], "goal": "real goal"}
    assert demos == [
        {
            "messages": [
                {"role": "system", "content": "demo goal"},
                {"role": "user", "content": "demo ask"},
                {"role": "user", "content": "end_conversation()", "recipient": "environment"},
            ]
        }
    ]
    with pytest.raises(tm.Inexact, match="agent prompt"):
        ts.user_side(rows, instruction, "ANOTHER PROMPT")
