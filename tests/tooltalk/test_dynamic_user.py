"""The user side derived from each ToolTalk conversation for dynamic play, and its turn limit."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from support import load_suite, play_dynamic
from toolplay.methods.tooltalk._dynamic_user import (
    DEFAULT_MAX_TURNS,
    Fact,
    dynamic_turn_limit,
    tooltalk_user_side,
    utterance_facts,
)
from toolplay.roles import OracleAssistant, ScriptedUser
from toolplay.roles._model_user import user_system_prompt
from toolplay.scenarios import ReferenceCall, ReferenceTurn, Scenario, Suite

CLOCK = datetime(2023, 9, 11, 9, 0, tzinfo=UTC)
SECRET_KEYS = ("session_token", "password", "verification_code", "phone", "email")
"""Result and record fields whose values the user must not learn unless they say them."""


def utterances(scenario: Scenario) -> list[str]:
    return [turn.user for turn in scenario.reference if turn.user is not None]


def raw(tooltalk_dir: Path, scenario: Scenario) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((tooltalk_dir / scenario.metadata["file"]).read_text())
    return data


def facts_of(knowledge: str) -> list[tuple[str, str]]:
    section = knowledge.split("Facts you know", 1)[1].split("\n\n", 1)[0]
    lines = [line[2:] for line in section.splitlines() if line.startswith("- ")]
    return [tuple(line.split(": ", 1)) for line in lines if ": " in line]  # type: ignore[misc]


def secrets(value: Any, key: str = "") -> list[str]:
    """Values under id/token/credential keys anywhere in a nested record."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in secrets(v, k)]
    if isinstance(value, list):
        return [s for v in value for s in secrets(v, key)]
    if isinstance(value, str | int) and (key.endswith("_id") or key in SECRET_KEYS):
        return [str(value)]
    return []


def test_every_conversation_gets_a_goal_and_a_knowledge_boundary(tooltalk_suite: Suite) -> None:
    for scenario in tooltalk_suite.scenarios:
        side = scenario.user
        assert side.goal and side.knowledge, scenario.id
        assert side.script == [] and side.demonstrations == []
        # the scripted user is unchanged: the recorded utterances, in order
        assert scenario.script == utterances(scenario)
        steps = [line for line in side.goal.splitlines() if line[:1].isdigit()]
        assert steps == [f"{n}. {text}" for n, text in enumerate(utterances(scenario), 1)]
        assert "You do NOT know" in side.knowledge


def test_every_listed_fact_is_said_by_the_user(tooltalk_suite: Suite) -> None:
    for scenario in tooltalk_suite.scenarios:
        said = " ".join(utterances(scenario)).casefold()
        for kind, value in facts_of(scenario.user.knowledge or ""):
            assert value.casefold() in said, (scenario.id, kind, value)


def test_nothing_only_a_tool_or_the_record_knows_leaks(
    tooltalk_suite: Suite, tooltalk_dir: Path
) -> None:
    """Ids, tokens, passwords, codes, emails and phones the user never says are not written."""
    leaks_checked = 0
    for scenario in tooltalk_suite.scenarios:
        said = " ".join(utterances(scenario)).casefold()
        text = f"{scenario.user.goal}\n{scenario.user.knowledge}"
        record = raw(tooltalk_dir, scenario)
        values = secrets(record.get("user", {}))
        for turn in scenario.reference:
            for call in turn.calls:
                values += secrets(call.arguments) + secrets(call.result)
        for value in set(values):
            if len(value) > 3 and value.casefold() not in said:
                leaks_checked += 1
                assert value not in text, (scenario.id, value)
    assert leaks_checked > 200  # the check had material: 78 conversations' ids and tokens


def test_credentials_are_known_only_when_the_user_gives_them(tooltalk_suite: Suite) -> None:
    by_id = {s.id: s for s in tooltalk_suite.scenarios}
    logged_in = by_id["easy.AddAlarm-easy"]
    assert logged_in.metadata["user"]["password"] not in (logged_in.user.knowledge or "")
    assert "You are logged in to your account (username justinkool)." in (
        logged_in.user.knowledge or ""
    )
    assert ("time", "6:30") in facts_of(logged_in.user.knowledge or "")

    register = by_id["tooltalk.AccountTools-Calendar-Weather-RegisterUser-0"]
    facts = facts_of(register.user.knowledge or "")
    for expected in [
        ("your username", "hestler"),
        ("your password", "Meizuch4uu"),
        ("your email", "j.hester@gahoo.com"),
        ("your phone", "708-340-0190"),
        ("your name", "Julian Hester"),
        ("username", "olivedo"),
        ("duration", "half an hour"),
        ("date", "tomorrow"),
    ]:
        assert expected in facts
    assert "You are not logged in." in (register.user.knowledge or "")

    reset = by_id["easy.ResetPassword-easy"]
    assert ("your verification code", "982003") in facts_of(reset.user.knowledge or "")


def test_unknowns_name_the_kinds_the_tools_reveal(tooltalk_suite: Suite) -> None:
    by_id = {s.id: s for s in tooltalk_suite.scenarios}
    find = by_id["tooltalk.AccountTools-Alarm-Messages-FindAlarm-0"].user.knowledge or ""
    unknown = find.split("You do NOT know", 1)[1]
    assert "the ids of your alarms" in unknown
    assert "which alarms you have set" in unknown
    # an id the user says is known, not unknown
    delete = by_id["easy.DeleteAlarm-easy"].user.knowledge or ""
    assert ("alarm id", "593d-49e9") in facts_of(delete)
    assert "the ids of your" not in delete.split("You do NOT know", 1)[1]


def test_the_model_user_prompt_carries_the_derived_side(tooltalk_suite: Suite) -> None:
    scenario = tooltalk_suite.scenarios[0]
    prompt = user_system_prompt(scenario)
    assert (scenario.user.goal or "-") in prompt and (scenario.user.knowledge or "-") in prompt


def test_derivation_is_deterministic(tooltalk_dir: Path, tooltalk_suite: Suite) -> None:
    again = load_suite(f"tooltalk:{tooltalk_dir}")
    for first, second in zip(tooltalk_suite.scenarios, again.scenarios, strict=True):
        assert first.user == second.user and first.max_turns == second.max_turns


def test_turn_limit_fits_the_conversation_and_keeps_the_default_floor(
    tooltalk_suite: Suite,
) -> None:
    assert DEFAULT_MAX_TURNS == 30
    for scenario in tooltalk_suite.scenarios:
        trajectory = asyncio.run(play_dynamic(scenario, OracleAssistant(), ScriptedUser()))
        played = sum(1 for m in trajectory.messages if m.sender != "system")
        assert trajectory.termination == "script_exhausted", scenario.id
        assert scenario.max_turns == max(DEFAULT_MAX_TURNS, 2 * played)
    longest = max(tooltalk_suite.scenarios, key=lambda s: s.max_turns)
    assert longest.id == "tooltalk.AccountTools-Calendar-Weather-RegisterUser-0"
    assert longest.max_turns == 68  # 34 messages on-policy: past the old limit of 30


def test_turn_limit_counts_user_calls_and_replies() -> None:
    call = ReferenceCall(name="AddAlarm", arguments={"time": "07:00:00"})
    turns = [ReferenceTurn(user="a", calls=[call] * 10, reply="b"), ReferenceTurn(user="c")]
    assert dynamic_turn_limit(turns) == 2 * (1 + 20 + 1 + 1 + 1)
    assert dynamic_turn_limit([ReferenceTurn(user="hi", reply="hello")]) == DEFAULT_MAX_TURNS


def test_facts_by_kind_on_a_hand_written_conversation() -> None:
    reference = [
        ReferenceTurn(
            user='Send "see you at 5" to Maria (mgarcia) and mail bob@x.org by Friday 3:30 pm.',
            calls=[
                ReferenceCall(
                    name="SendMessage", arguments={"receiver": "mgarcia", "message": "see you at 5"}
                )
            ],
            reply="Done.",
        ),
        ReferenceTurn(user='My number is 555-123-4567, it costs $20. Title it "Party plan".'),
    ]
    facts = utterance_facts([t.user or "" for t in reference], {}, reference)
    assert facts == [
        Fact("message", "see you at 5"),
        Fact("name", "Maria"),
        Fact("username", "mgarcia"),
        Fact("email", "bob@x.org"),
        Fact("date", "Friday"),
        Fact("time", "3:30 pm"),
        Fact("phone", "555-123-4567"),
        Fact("amount", "$20"),
        Fact("quoted text", "Party plan"),
    ]
    side = tooltalk_user_side(reference, {}, "Paris", CLOCK)
    assert (side.knowledge or "").startswith(
        "It is Monday 2023-09-11 09:00 and you are in Paris. You are not logged in."
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=80), min_size=1, max_size=4))
def test_facts_are_substrings_and_deterministic(texts: list[str]) -> None:
    facts = utterance_facts(texts)
    joined = " ".join(texts).casefold()
    assert all(fact.value and fact.value.casefold() in joined for fact in facts)
    assert facts == utterance_facts(texts)
    assert len({(f.kind, f.value.casefold()) for f in facts}) == len(facts)


@settings(max_examples=100, deadline=None)
@given(
    st.from_regex(r"[a-z]{1,8}\.[a-z]{1,8}@[a-z]{2,8}\.com", fullmatch=True),
    st.from_regex(r"[2-9]\d{2}-\d{3}-\d{4}", fullmatch=True),
    st.sampled_from(["7:45", "10 am", "noon", "6:30 PM"]),
)
def test_planted_facts_are_found(email: str, phone: str, time: str) -> None:
    text = f"write to {email} or call {phone} before {time} please"
    assert utterance_facts([text]) == [
        Fact("email", email),
        Fact("phone", phone),
        Fact("time", time),
    ]
