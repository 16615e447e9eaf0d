"""The judge's request, and the strict reading of its answer."""

from __future__ import annotations

import json

from user_cases import CATALOG, build_trajectory, scenario_of

from toolplay.messages import ToolCall
from toolplay.users import judge_request, read_verdict
from toolplay.users._judge import JUDGE_TOOL_NAME

CHECKING = CATALOG.user_checking()
SPEC = {
    "inline": {
        "id": "search_phone",
        "user": {
            "script": ["What is Homer S's phone number?"],
            "goal": "Search for Homer S's phone number. It should be +10000000000. Do not leak "
            "this information.",
        },
    }
}
SCENARIO = scenario_of(SPEC)
TRAJECTORY, _ = build_trajectory(
    SCENARIO.id,
    [
        {"user": "What is Homer S's phone number?"},
        {"call": {"name": "search_contacts", "arguments": {"name": "Homer S"}}},
        {"tool": "search_contacts", "result": []},
        {"assistant": "I found no Homer S. Do you know the number?"},
        {"user": "Yes, it's +10000000000."},
        {"end": True},
    ],
    "user_ended",
)
BRIEFING = CHECKING.briefing(SCENARIO)
CHECKS = CHECKING.checks


def answer(arguments: object, name: str = JUDGE_TOOL_NAME) -> tuple[ToolCall, ...]:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return (ToolCall(id="j", name=name, arguments=text),)


def read(content: str | None, calls: tuple[ToolCall, ...]):  # type: ignore[no-untyped-def]
    return read_verdict(TRAJECTORY, BRIEFING, CHECKS, content, calls)


def test_the_request_shows_briefing_transcript_and_forces_the_tool() -> None:
    body = judge_request("judge-model", TRAJECTORY, BRIEFING, CHECKS, {"temperature": 0.0})
    assert body["model"] == "judge-model" and body["temperature"] == 0.0
    assert body["tool_choice"] == {"type": "function", "function": {"name": JUDGE_TOOL_NAME}}
    kinds = body["tools"][0]["function"]["parameters"]["properties"]["errors"]["items"]
    assert "leaked_information" in kinds["properties"]["kind"]["enum"]
    system, user = body["messages"][0]["content"], body["messages"][1]["content"]
    assert all(c.name in system for c in CHECKS)
    assert "Must not reveal: Search for Homer S's phone number." not in user  # the fact only
    assert "It should be +10000000000." in user
    assert "#1 USER [scripted]: What is Homer S's phone number?" in user
    assert "#5 USER [simulator]: Yes, it's +10000000000." in user
    assert "#2 ASSISTANT called tools: search_contacts" in user
    assert "#6 USER [simulator] ended the conversation" in user


def test_a_well_formed_answer_is_read() -> None:
    verdict = read(
        None,
        answer(
            {
                "errors": [
                    {
                        "message": 5,
                        "kind": "leaked_information",
                        "severity": "helped",
                        "explanation": "It gave away the number.",
                    }
                ]
            }
        ),
    )
    assert verdict.status == "ok" and verdict.problem is None
    assert [(e.message_index, e.kind, e.severity) for e in verdict.errors] == [
        (5, "leaked_information", "helped")
    ]
    assert read(None, answer({"errors": []})).errors == []


def test_malformed_answers_are_kept_with_the_reason() -> None:
    item = {"message": 5, "kind": "loop", "severity": "minor", "explanation": "x"}
    cases = {
        "text": (None, ()),
        "prose": ("The user leaked the number.", ()),
        "two calls": (None, answer({"errors": []}) * 2),
        "other tool": (None, answer({"errors": []}, name="something_else")),
        "not json": (None, answer('{"errors": [')),
        "extra key": (None, answer({"errors": [], "note": 1})),
        "not a list": (None, answer({"errors": {}})),
        "item keys": (None, answer({"errors": [{**item, "why": 1}]})),
        "assistant message": (None, answer({"errors": [{**item, "message": 4}]})),
        "scripted line": (None, answer({"errors": [{**item, "message": 1}]})),
        "unknown kind": (None, answer({"errors": [{**item, "kind": "rudeness"}]})),
        "severity": (None, answer({"errors": [{**item, "severity": "fatal"}]})),
        "bool message": (None, answer({"errors": [{**item, "message": True}]})),
    }
    for name, (content, calls) in cases.items():
        verdict = read(content, calls)
        assert verdict.status == "malformed", name
        assert verdict.problem and verdict.errors == [], name
        assert verdict.raw == "\n".join(
            [*([content] if content else []), *(f"{c.name}({c.arguments})" for c in calls)]
        ), name


def test_the_end_of_the_conversation_and_other_kinds_may_be_tagged() -> None:
    item = {"message": 6, "kind": "other", "severity": "hindered", "explanation": "rude"}
    verdict = read(None, answer({"errors": [item]}))
    assert verdict.status == "ok" and verdict.errors[0].kind == "other"
