"""AutoDE's protocol as a mode: the first call ends the dialogue, round limit, static forcing,
the reference's prompt files, and a model-driven user against the test endpoint."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import support
from toolplay.cli import app
from toolplay.conversation import PlaySettings
from toolplay.messages import ToolCall, Trajectory
from toolplay.methods.autode import protocol_prompt
from toolplay.roles import AssistantContext, AssistantTurn, ScriptedUser, UserContext, UserTurn
from toolplay.scenarios import Scenario, Suite
from toolplay.testing import ChatServer, ReferenceResponder

MODES = {"dynamic": "autode-protocol", "static": "autode-protocol-static"}


class Scripted:
    """An assistant answering with the given turns in order (then repeating the last)."""

    name = "scripted-assistant"

    def __init__(self, *turns: AssistantTurn) -> None:
        self.turns = turns
        self.contexts: list[AssistantContext] = []

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        self.contexts.append(context)
        return self.turns[min(len(self.contexts) - 1, len(self.turns) - 1)]


class Patient:
    """A user who always answers, so only the round limit ends the dialogue."""

    name = "patient"

    def __init__(self) -> None:
        self.asked = 0

    async def respond(self, context: UserContext) -> UserTurn:
        self.asked += 1
        said = sum(1 for m in context.messages if m.sender == "user")
        return UserTurn(content=context.scenario.script[0] if not said else "I don't know.")


def call(name: str, arguments: dict[str, Any] | str) -> AssistantTurn:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return AssistantTurn(tool_calls=(ToolCall(id=f"c{len(text)}", name=name, arguments=text),))


def play(
    scenario: Scenario, assistant: Any, user: Any = None, mode: str = "dynamic", **settings: Any
) -> Trajectory:
    return asyncio.run(
        support.play(
            MODES[mode],
            scenario,
            assistant,
            user or ScriptedUser(),
            settings=PlaySettings(**settings),
        )
    )


def details(scenario: Scenario, trajectory: Trajectory) -> dict[str, Any]:
    return support.details(support.score(scenario, trajectory))


@pytest.fixture(scope="module")
def bluetooth(autode_suite: Suite) -> Scenario:
    return autode_suite.scenarios[0]  # TurnOnBluetooth(deviceType=watch), one user turn


def test_the_first_call_ends_the_dialogue_and_is_scored(bluetooth: Scenario) -> None:
    wrong, right = {"deviceType": "TV"}, {"deviceType": "watch"}
    assistant = Scripted(call("TurnOnBluetooth", wrong), call("TurnOnBluetooth", right))
    trajectory = play(bluetooth, assistant)
    assert trajectory.termination == "completed" and len(assistant.contexts) == 1
    score = support.score(bluetooth, trajectory)
    assert score.score == 0.0 and support.details(score)["wrong"] == ["deviceType"]
    assert trajectory.messages[-1].result == {"status": "recorded"}


def test_the_assistant_sees_only_the_gold_api_and_never_the_scenario(bluetooth: Scenario) -> None:
    assistant = Scripted(call("TurnOnBluetooth", {"deviceType": "watch"}))
    play(bluetooth, assistant)
    (context,) = assistant.contexts
    assert [t["function"]["name"] for t in context.tools] == ["TurnOnBluetooth"]
    assert context.reference is None and not context.force_tool_call
    assert context.system_prompt is not None and "[DONE]" in context.system_prompt


def test_a_misnamed_call_still_ends_the_dialogue_and_counts(bluetooth: Scenario) -> None:
    trajectory = play(bluetooth, Scripted(call("bluetooth_on", {"deviceType": "watch"})))
    assert trajectory.termination == "completed"
    assert support.score(bluetooth, trajectory).score == 1.0  # the name is not scored


def test_the_stop_marker_ends_without_a_call(bluetooth: Scenario) -> None:
    trajectory = play(bluetooth, Scripted(AssistantTurn(content="I can't do that. [DONE]")))
    assert trajectory.termination == "completed"
    found = details(bluetooth, trajectory)
    assert found["failure"] == "never_called" and found["reason"] == ""
    custom = play(bluetooth, Scripted(AssistantTurn(content="Sorry. <end>")), stop_marker="<end>")
    assert custom.termination == "completed"


def test_eight_answers_without_a_call_hit_the_round_limit(bluetooth: Scenario) -> None:
    asking, user = Scripted(AssistantTurn(content="Which device?")), Patient()
    trajectory = play(bluetooth, asking, user)
    assert trajectory.termination == "turn_limit" and len(asking.contexts) == 8
    assert user.asked == 8  # the user is not asked again once the rounds are used up
    found = details(bluetooth, trajectory)
    assert found["reason"] == "Round limit reached" and found["failure"] == "round_limit"
    shorter = Scripted(AssistantTurn(content="Which device?"))
    play(bluetooth, shorter, Patient(), max_rounds=3)
    assert len(shorter.contexts) == 3


def test_lookups_use_rounds_and_only_the_label_call_ends() -> None:
    # toolplay's own scripts under the protocol: lookups first are allowed, the label ends
    scenario = next(
        s for s in support.load_suite("autode").scenarios if "multiple_tool_call" in s.categories
    )
    label = scenario.metadata["label"]
    lookup = scenario.reference[-1].calls[0]
    assert lookup.name != label["name"]
    assistant = Scripted(
        call(lookup.name, lookup.arguments), call(label["name"], label["arguments"])
    )
    trajectory = play(scenario, assistant)
    assert trajectory.termination == "completed" and len(assistant.contexts) == 2
    assert support.score(scenario, trajectory).score == 1.0
    looping = Scripted(call(lookup.name, lookup.arguments))
    assert play(scenario, looping, max_rounds=3).termination == "turn_limit"
    assert len(looping.contexts) == 3


def test_static_shows_the_whole_dialogue_and_forces_one_call(autode_suite: Suite) -> None:
    scenario = next(s for s in autode_suite.scenarios if len(s.reference) == 3)
    assistant = Scripted(call(scenario.tools.allow[0], scenario.metadata["label"]["arguments"]))
    trajectory = play(scenario, assistant, mode="static", submit_text="SUBMIT API")
    (context,) = assistant.contexts
    assert context.force_tool_call and [t["function"]["name"] for t in context.tools] == [
        scenario.tools.allow[0]
    ]
    shown = [m.content for m in context.messages if m.sender != "system"]
    expected = [x for t in scenario.reference for x in (t.user, t.reply) if x]
    assert shown[:-1] == expected[:-1] and shown[-1] == expected[-1] + "\n\nSUBMIT API"
    assert trajectory.user == "reference" and support.score(scenario, trajectory).score == 1.0
    talker = play(scenario, Scripted(AssistantTurn(content="Sure.")), mode="static")
    assert talker.termination == "turn_limit"  # its one chance passed without a call


def test_the_reference_prompt_files_load_as_data(autode_dir: Path, bluetooth: Scenario) -> None:
    text = (autode_dir / "prompts" / "prompt_eng_system_llama_v2.txt").read_text()
    tools = support.setup(bluetooth).registry.schemas()
    prompt = protocol_prompt(text, tools)
    assert not prompt.startswith("[Llama]") and "{{api_doc}}" not in prompt
    doc = json.loads(prompt.split("<doc>\n")[1].split("\n</doc>")[0])
    assert list(doc) == ["name", "description", "parameters", "requiredParameters"]
    assert doc["name"] == "TurnOnBluetooth" and doc["requiredParameters"] == ["deviceType"]
    plain = (autode_dir / "prompts" / "prompt_eng_system.txt").read_text()
    assert protocol_prompt(plain, tools) == plain
    assistant = Scripted(call("TurnOnBluetooth", {"deviceType": "watch"}))
    play(bluetooth, assistant, system_prompt=text)
    assert assistant.contexts[0].system_prompt == prompt


def invoke(server: ChatServer, out: Path, *args: str) -> tuple[int, str, dict[str, Any]]:
    return support.run_on_endpoint(server.base_url, out, "--max-retries", "0", *args)


def requests(server: ChatServer, user: bool) -> Sequence[dict[str, Any]]:
    bodies = [r.body for r in server.requests]
    offers_end = [
        any(t["function"]["name"] == "end_conversation" for t in b.get("tools") or [])
        for b in bodies
    ]
    return [b for b, end in zip(bodies, offers_end, strict=True) if end == user]


def test_a_model_driven_user_plays_dialogues_against_the_endpoint(
    autode_dir: Path, autode_suite: Suite, tmp_path: Path
) -> None:
    suite = f"autode-data:{autode_dir}"
    user_file = autode_dir / "prompts" / "prompt_eng_user_v3.txt"
    system_file = autode_dir / "prompts" / "prompt_eng_system_llama_v2.txt"
    with ChatServer(ReferenceResponder(autode_suite.scenarios[:8])) as server:
        code, output, summary = invoke(
            server,
            tmp_path / "dynamic",
            "--suite",
            suite,
            "--limit",
            "8",
            "--user",
            "openai:ref",
            "--user-prompt",
            str(user_file),
            "--system-prompt",
            str(system_file),
            "--presentation",
            "toolplay",
        )
        assert code == 0, output
        assert summary["completed"] == 8 and summary["metrics"]["slot_f1"] == 1.0
        users = requests(server, user=True)
        assert len(users) == 2  # the two dialogues whose user answers a question
        brief = users[0]["messages"][0]["content"]
        scenario = autode_suite.scenarios[4]
        assert brief.startswith(user_file.read_text())
        assert brief.endswith(f"{scenario.user.goal}\n{scenario.user.knowledge}")
        assistants = requests(server, user=False)
        assert all(len(b["tools"]) == 1 and "tool_choice" not in b for b in assistants)
        assert '<doc>\n{"name": "TurnOnBluetooth"' in assistants[0]["messages"][0]["content"]
    with ChatServer(ReferenceResponder(autode_suite.scenarios[:8])) as server:
        code, output, summary = invoke(
            server,
            tmp_path / "static",
            "--suite",
            suite,
            "--limit",
            "8",
            "--mode",
            "static",
            "--presentation",
            "toolplay",
        )
        assert code == 0, output
        assert summary["mode"] == "autode-protocol-static"
        assert summary["metrics"]["slot_f1"] == 1.0
        bodies = [r.body for r in server.requests]
        assert len(bodies) == 8 and all(b["tool_choice"] == "required" for b in bodies)


def test_a_prompt_file_that_is_not_there_is_refused(autode_dir: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--suite",
            f"autode-data:{autode_dir}",
            "--system-prompt",
            "prompts/no_such_prompt.txt",
            "--out",
            str(tmp_path / "x"),
        ],
    )
    assert result.exit_code != 0 and "no such file: prompts/no_such_prompt.txt" in result.output
