"""The `tooltalk` presentation's rendering rules, on a small conversation built here.

Every expected request is assembled from the reference's exported data (`data/presentation.json`)
and the rules of `OpenAIPredictor.predict` (system text, calls, results, functions), never from
toolplay's own rendering.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from support import CATALOG, setup
from toolplay.clients import ChatClient, ModelSettings, to_functions
from toolplay.conversation import PlayRequest, PlaySettings
from toolplay.methods.tooltalk import paper_departures
from toolplay.methods.tooltalk._texts import reference_texts
from toolplay.roles import ChatAssistant, ScriptedUser
from toolplay.scenarios import Scenario, Suite

TEXTS = reference_texts()
ACCOUNT = {
    "username": "alice",
    "email": "alice@mail.com",
    "phone": "123-456-7890",
    "name": "Alice",
    "password": "pw",
    "session_token": None,
}
ALARM_CALL = {"session_token": "tok-1", "time": "08:00:00"}


def conversation(*, logged_in: bool = True) -> dict[str, Any]:
    metadata = {"location": "Seattle", "timestamp": "2023-09-11 13:00:00"}
    user: dict[str, Any] = {"username": "alice", "password": "pw"}
    if logged_in:
        metadata["username"] = "alice"
        user["session_token"] = "tok-1"
    return {
        "name": "alarm",
        "conversation_id": "c-1",
        "metadata": metadata,
        "user": user,
        "suites_used": ["Alarm", "AccountTools", "Alarm"],
        "apis_used": ["FindAlarms", "AddAlarm"],
        "conversation": [
            {"index": 0, "role": "user", "text": "Wake me at eight."},
            {
                "index": 1,
                "role": "assistant",
                "text": "Done.",
                "apis": [
                    {
                        "request": {"api_name": "AddAlarm", "parameters": dict(ALARM_CALL)},
                        "response": {"alarm_id": "5bff-dd80"},
                        "exception": None,
                    }
                ],
            },
            {"index": 2, "role": "user", "text": "Thanks, Zürich next."},
            {"index": 3, "role": "assistant", "text": "You're welcome."},
        ],
    }


def suite(tmp_path: Path, *, logged_in: bool = True) -> Suite:
    data = tmp_path / "data"
    (data / "databases").mkdir(parents=True)
    (data / "easy").mkdir()
    account = {**ACCOUNT, "session_token": "tok-1" if logged_in else None}
    (data / "databases" / "Account.json").write_text(json.dumps({"alice": account}))
    (data / "easy" / "alarm.json").write_text(json.dumps(conversation(logged_in=logged_in)))
    loaded: Suite = CATALOG.load_suite(f"tooltalk:{data}")
    return loaded


class Model:
    """A chat endpoint answering with the given messages in turn; keeps what it was sent."""

    endpoint = "test://model"

    def __init__(self, *answers: dict[str, Any]) -> None:
        self.answers = list(answers)
        self.requests: list[dict[str, Any]] = []

    async def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        self.requests.append(json.loads(json.dumps(request)))
        return {"choices": [{"index": 0, "message": self.answers.pop(0)}], "usage": {}}

    async def aclose(self) -> None:
        return None


def call(name: str, arguments: str, content: str | None = None) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": content,
        "function_call": {"name": name, "arguments": arguments},
    }


def text(content: str) -> dict[str, Any]:
    return {"role": "assistant", "content": content}


def play(
    scenario: Scenario,
    model: Model,
    presentation: str = "tooltalk",
    *,
    augment: tuple[str, ...] = (),
    settings: ModelSettings | None = None,
) -> list[dict[str, Any]]:
    chosen = CATALOG.presentation(presentation)
    resolved = chosen.settings(settings or ModelSettings(record_exchanges=False))
    assistant = ChatAssistant("m", "gpt-4", ChatClient(model), resolved, {}, chosen)
    request = PlayRequest(
        setup(scenario), assistant, ScriptedUser(), 0, PlaySettings(), augment, chosen
    )
    trajectory = asyncio.run(CATALOG.mode("static").play(request))
    assert trajectory.termination == "completed", trajectory.error
    return model.requests


def system(username: str | None = "alice") -> dict[str, str]:
    content = TEXTS.system_template.format(
        location="Seattle", timestamp="2023-09-11 13:00:00", username=username
    )
    return {"role": "system", "content": content}


def functions(order: list[str] | tuple[str, ...] = TEXTS.order) -> list[dict[str, Any]]:
    return [TEXTS.functions[name] for name in order]


def test_a_first_request_is_model_messages_functions_and_nothing_else(tmp_path: Path) -> None:
    scenario = suite(tmp_path).scenarios[0]
    first = play(scenario, Model(text("Done."), text("Sure.")))[0]
    assert list(first) == ["model", "messages", "functions"]
    assert first["messages"] == [system(), {"role": "user", "content": "Wake me at eight."}]
    assert first["functions"] == functions()
    assert all(
        set(doc) == {"name", "description", "parameters", "required"} for doc in first["functions"]
    )


def test_calls_show_the_executed_arguments_and_results_their_own_form(tmp_path: Path) -> None:
    scenario = suite(tmp_path).scenarios[0]
    requests = play(
        scenario,
        Model(
            call("AddAlarm", '{"time":"07:00:00"}', "On it."),
            call("Nope", "{}"),
            text("Done."),
            text("Sure."),
        ),
    )
    mine = requests[2]["messages"][2:]
    assert mine == [
        {
            "role": "assistant",
            "content": None,
            "function_call": {
                "name": "AddAlarm",
                "arguments": '{"time": "07:00:00", "session_token": "tok-1"}',
            },
        },
        {
            "role": "function",
            "name": "AddAlarm",
            "content": '{"response": {"alarm_id": "5bff-dd80"}, "exception": null}',
        },
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "Nope", "arguments": "{}"},
        },
        {
            "role": "function",
            "name": "Nope",
            "content": '{"response": null, "exception": "API Nope not found"}',
        },
    ]
    # the next turn: the ground truth (the recorded parameters, token in its place), not the model's
    later = requests[3]["messages"]
    assert later[2:6] == [
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "AddAlarm", "arguments": json.dumps(ALARM_CALL)},
        },
        {
            "role": "function",
            "name": "AddAlarm",
            "content": '{"response": {"alarm_id": "5bff-dd80"}, "exception": null}',
        },
        {"role": "assistant", "content": "Done."},
        {"role": "user", "content": "Thanks, Z\u00fcrich next."},
    ]
    assert '"Thanks, Z\\u00fcrich next."' in json.dumps(requests[3])  # ASCII on the wire


def test_a_conversation_starting_logged_out_says_none(tmp_path: Path) -> None:
    scenario = suite(tmp_path, logged_in=False).scenarios[0]
    requests = play(
        scenario,
        Model(
            call("UserLogin", '{"username": "alice", "password": "pw"}'), text("In."), text("Bye.")
        ),
    )
    assert requests[0]["messages"][0] == system(None)
    assert requests[-1]["messages"][0] == system(None)  # a login does not change it
    # the recorded call is replayed logged out: shown with its parameters unchanged
    assert requests[-1]["messages"][2]["function_call"]["arguments"] == json.dumps(ALARM_CALL)


def test_documentation_removed_is_the_references_ablation(tmp_path: Path) -> None:
    scenario = suite(tmp_path).scenarios[0]
    first = play(scenario, Model(text("Done."), text("Sure.")), augment=("no_docs",))[0]
    assert first["functions"] == [TEXTS.functions_without_documentation[n] for n in TEXTS.order]


@pytest.mark.parametrize(
    ("presentation", "order"),
    [
        (
            "tooltalk-suite",
            [*TEXTS.suites["Alarm"], *TEXTS.suites["AccountTools"], *TEXTS.suites["Alarm"]],
        ),
        ("tooltalk-exact", ["FindAlarms", "AddAlarm"]),
    ],
)
def test_the_api_modes_offer_the_references_docs_in_its_order(
    tmp_path: Path, presentation: str, order: list[str]
) -> None:
    scenario = suite(tmp_path).scenarios[0]
    requests = play(
        scenario,
        Model(call("CurrentWeather", '{"location": "x"}'), text("Done."), text("Sure.")),
        presentation,
    )
    assert requests[0]["functions"] == functions(order)
    # an API that was not offered still runs, as in the reference
    assert "Location x not found in database" in requests[1]["messages"][-1]["content"]


def test_the_tools_wire_carries_the_same_content(tmp_path: Path) -> None:
    scenario = suite(tmp_path).scenarios[0]
    answers = (call("AddAlarm", '{"time":"07:00:00"}'), text("Done."), text("Sure."))
    legacy = play(scenario, Model(*answers))
    tools = play(
        scenario, Model(*answers), settings=ModelSettings(record_exchanges=False, wire="tools")
    )
    assert "tools" in tools[0] and "functions" not in tools[0]
    assert [to_functions(r) for r in tools] == legacy


def test_a_temperature_the_run_sets_is_sent(tmp_path: Path) -> None:
    scenario = suite(tmp_path).scenarios[0]
    settings = ModelSettings(record_exchanges=False, temperature=0.5)
    first = play(scenario, Model(text("Done."), text("Sure.")), settings=settings)[0]
    assert list(first) == ["model", "messages", "temperature", "functions"]


def test_the_suite_defaults_to_the_reference_presentation(tmp_path: Path) -> None:
    loaded = suite(tmp_path)
    assert loaded.presentation == "tooltalk"
    assert loaded.paper_setup is paper_departures
    presentation = CATALOG.presentation("tooltalk")
    assert presentation.default_temperature is None and presentation.default_wire == "functions"


def test_departures_from_the_papers_setup_are_named() -> None:
    assert (
        paper_departures({"presentation": "tooltalk", "augment": ["no_docs"], "mode": "static"})
        == []
    )
    found = paper_departures(
        {
            "presentation": "toolplay",
            "mode": "dynamic",
            "augment": ["distractors_3"],
            "assistant_model": {"temperature": 0.0, "wire": "tools"},
            "play": {"system_prompt": "Be brief."},
        }
    )
    assert len(found) == 6
    assert found[0].startswith("presentation 'toolplay'")
    assert any(line.startswith("temperature 0.0 sent") for line in found)
