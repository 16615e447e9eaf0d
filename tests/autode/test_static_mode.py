"""AutoDE static mode: the reference history ending on a user turn, then a forced tool call."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

import support
from support import (
    build_assistant,
    load_suite,
    offered_tools,
    parse_scenario,
    play_autode_static,
    score_slots,
)
from toolplay.clients._prompt_format import output_schema
from toolplay.messages import (
    ToolCall,
    Trajectory,
)
from toolplay.roles import (
    Assistant,
    AssistantContext,
    AssistantTurn,
    OracleAssistant,
    ScriptedUser,
    SilentAssistant,
)
from toolplay.scenarios import Scenario
from toolplay.testing import (
    ChatServer,
    ReferenceResponder,
)

SUITE = load_suite("autode").scenarios
BY_ID = {s.id: s for s in SUITE}
ASKING = BY_ID["autode_modify_contact_fix_number"]  # two clarifications, a lookup first


class Recorder:
    """An assistant that makes `calls` one per turn, then answers; records what it was told."""

    name = "recorder"

    def __init__(self, calls: list[tuple[str, dict[str, object]]], *, forever: bool = False):
        self.calls = calls
        self.forever = forever
        self.forced: list[bool] = []

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        self.forced.append(context.force_tool_call)
        made = len(self.forced) - 1
        if self.forever or made < len(self.calls):
            name, arguments = self.calls[made % len(self.calls)]
            return AssistantTurn(tool_calls=(ToolCall.from_args(f"c{made}", name, arguments),))
        return AssistantTurn(content="All done.")


def in_mode(mode: str, scenario: Scenario, assistant: Assistant, trial: int = 0) -> Trajectory:
    async def go() -> Trajectory:
        return await support.play(
            support.CATALOG.mode(support.load_suite("autode").mode(mode)).name,
            scenario,
            assistant,
            ScriptedUser(),
            trial=trial,
        )

    return asyncio.run(go())


def play(scenario: Scenario, assistant: object, **options: object) -> Trajectory:
    return asyncio.run(play_autode_static(scenario, assistant, **options))  # type: ignore[arg-type]


def test_the_history_is_the_reference_dialogue_ending_on_the_last_user_turn() -> None:
    trajectory = play(ASKING, OracleAssistant())
    history = [m for m in trajectory.messages if m.from_reference]
    assert [(m.sender, m.content) for m in history] == [
        ("user", "I need to fix a phone number in my contacts."),
        ("assistant", "Whose number should I fix?"),
        ("user", "Raj Patel's."),
        ("assistant", "What's the correct number?"),
        ("user", "+14085550138."),
    ]
    assert not any(m.tool_calls for m in history)  # the reference calls are never shown
    predicted = [m for m in trajectory.messages if not m.from_reference and m.sender != "system"]
    assert [c.name for m in predicted for c in m.tool_calls] == [
        "search_contacts",
        "modify_contact",
    ]
    assert predicted[-1].content == "Done." and {m.turn for m in predicted} == {2}
    assert trajectory.mode == "static" and trajectory.user == "reference"
    assert trajectory.termination == "completed"
    assert score_slots(ASKING, trajectory).score == 1.0
    assert [c.table for c in trajectory.changes] == ["contacts"]


def test_only_the_first_answer_is_forced() -> None:
    recorder = Recorder(
        [
            ("search_contacts", {"name": "Raj"}),
            ("modify_contact", {"person_id": "c-raj", "phone_number": "+14085550138"}),
        ]
    )
    trajectory = play(ASKING, recorder)
    assert recorder.forced == [True, False, False]
    assert score_slots(ASKING, trajectory).score == 1.0


def test_an_assistant_that_never_stops_calling_is_cut_at_the_cap() -> None:
    recorder = Recorder([("get_wifi_status", {})], forever=True)
    trajectory = play(ASKING, recorder, max_calls=3)
    assert trajectory.termination == "call_limit" and len(recorder.forced) == 3
    assert support.details(score_slots(ASKING, trajectory))["failure"] == "wrong_function"
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        play(ASKING, recorder, max_calls=0)


def test_a_text_answer_despite_the_forcing_scores_never_called() -> None:
    trajectory = play(ASKING, SilentAssistant())
    result = score_slots(ASKING, trajectory)
    assert result.score == 0.0 and support.details(result)["failure"] == "never_called"


def test_an_assistant_crash_is_its_own_failure() -> None:
    class Crashing:
        name = "crashing"

        async def respond(self, context: AssistantContext) -> AssistantTurn:
            raise RuntimeError("boom")

    trajectory = play(ASKING, Crashing())
    assert trajectory.termination == "assistant_error" and "boom" in (trajectory.error or "")


def test_the_static_mode_entry_dispatches_slots_scenarios_here() -> None:
    trajectory = in_mode("static", ASKING, OracleAssistant(), 2)
    assert trajectory.trial == 2 and trajectory.user == "reference"
    assert sum(1 for m in trajectory.messages if m.sender == "user") == 3


@pytest.fixture()
def server() -> Iterator[ChatServer]:
    with ChatServer(ReferenceResponder(SUITE)) as running:
        yield running


def test_an_endpoint_assistant_is_asked_for_a_required_tool_call(server: ChatServer) -> None:
    assistant = build_assistant("openai:ref", {"base_url": server.base_url})
    trajectory = play(ASKING, assistant)
    bodies = [r.body for r in server.requests]
    assert [b.get("tool_choice") for b in bodies] == ["required", None, None]
    assert score_slots(ASKING, trajectory).score == 1.0
    dynamic = in_mode("dynamic", ASKING, assistant)
    assert all("tool_choice" not in r.body for r in server.requests[3:])
    assert score_slots(ASKING, dynamic).score == 1.0


def test_the_forced_local_grammar_only_admits_tool_calls() -> None:
    tools = offered_tools(ASKING).schemas
    free = output_schema(tools)
    forced = output_schema(tools, require_call=True)
    assert len(free["anyOf"]) == 2 and "answer" in free["anyOf"][0]["properties"]
    assert forced == free["anyOf"][1] and forced["required"] == ["tool_calls"]


GREETING = parse_scenario(
    {
        "id": "forced_greeting",
        "evaluation": "slots",
        "world": {"domains": ["settings"]},
        "tools": {"allow": ["get_wifi_status", "set_wifi_status"]},
        "user": {"script": ["Good morning! How are you today?"]},
        "reference": [
            {
                "user": "Good morning! How are you today?",
                "calls": [{"name": "get_wifi_status"}],
                "reply": "Fine.",
            }
        ],
    },
    "test",
)


def test_the_real_local_model_is_constrained_to_a_tool_call() -> None:
    assistant = build_assistant("local", {"max_tokens": 48})
    trajectory = play(GREETING, assistant, max_calls=1)
    first = next(m for m in trajectory.messages if m.sender == "assistant")
    assert first.tool_calls and first.tool_calls[0].name in {"get_wifi_status", "set_wifi_status"}
