"""The toolsandbox presentation: the tools it shows, the bodies it builds, its registration."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import support
from support import CATALOG, load_suite
from toolplay.clients import ModelOptions
from toolplay.conversation import shown_tools
from toolplay.conversation._play import PlayRequest
from toolplay.messages import Message, ToolCall
from toolplay.methods.toolsandbox import ToolSandboxPresentation
from toolplay.methods.toolsandbox._paper import paper_setup
from toolplay.methods.toolsandbox._shown import reference_data
from toolplay.roles import AssistantContext, ScriptedUser, SilentAssistant, UserContext
from toolplay.validate import validate_suite

PRESENTATION = CATALOG.presentation("toolsandbox")
DATA = reference_data()
BASE = "send_message_with_contact_content_cellular_off"


@pytest.fixture(scope="module")
def suite():  # type: ignore[no-untyped-def]
    return load_suite("toolsandbox")


def scenario(suite, base: str, setting: str = "none"):  # type: ignore[no-untyped-def]
    wanted = base if setting == "none" else f"{base}@{setting}"
    return next(s for s in suite.scenarios if s.id == wanted)


def offered(scenario):  # type: ignore[no-untyped-def]
    request = PlayRequest(
        support.setup(scenario), SilentAssistant(), ScriptedUser(), presentation=PRESENTATION
    )
    return shown_tools(request)


def test_registered_and_the_default_of_the_toolsandbox_suite(suite) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(PRESENTATION, ToolSandboxPresentation)
    assert suite.presentation == "toolsandbox" and suite.paper_setup is paper_setup
    assert load_suite("sandbox").presentation == "toolplay"
    assert PRESENTATION.settings(ModelOptions().resolve()).temperature is None


def test_the_exact_tool_lists_in_the_references_order(suite) -> None:  # type: ignore[no-untyped-def]
    for setting in ("none", "distractors_3", "distractors_10", "distractors_all"):
        tools = offered(scenario(suite, BASE, setting))
        exact = DATA.shown(BASE, setting)
        assert exact is not None
        assert list(tools.names.values()) == list(exact.agent)
        assert [s["function"] for s in tools.schemas] == [
            DATA.functions["none"][real] for real in exact.agent
        ]
        assert all("additionalProperties" not in json.dumps(s) for s in tools.schemas)


def test_a_reference_defect_is_kept_where_the_reference_shows_it(suite) -> None:  # type: ignore[no-untyped-def]
    """The one base whose milestones call a tool the reference never offers: the reference
    presentation does not offer it either (the paper's request and number), says so, and
    validation lists it as known; toolplay's presentation offers the export's fix."""
    name = "find_temperature_f_with_location_and_time_diff_low_battery_mode_multiple_user_turn"
    for setting in ("none", "distractors_3", "distractors_all"):
        case = scenario(suite, name, setting)
        exact = DATA.shown(name, setting)
        assert exact is not None
        assert list(offered(case).names.values()) == list(exact.agent)
        why = PRESENTATION.unsolvable(support.setup(case))
        assert (why is None) == ("unit_conversion" in exact.agent), setting
    assert "unit_conversion" not in DATA.shown(name, "none").agent  # type: ignore[union-attr]
    base = support.setup(scenario(suite, name))
    assert "unit_conversion" in base.offered.names()
    assert CATALOG.presentation("toolplay").unsolvable(base) is None
    report = validate_suite("toolsandbox")
    assert not report.failures and report.checked == 1032
    assert len(report.known) == 7 and all(k.startswith(name) for k in report.known)  # and sound


def test_scrambled_names_are_the_references_global_ones(suite) -> None:  # type: ignore[no-untyped-def]
    tools = offered(scenario(suite, BASE, "distractors_3+scrambled_names"))
    assert tools.names["setting_5"] == "set_cellular_service_status"
    assert tools.names["messaging_1"] == "send_message_with_phone_number"
    assert tools.parallel == "first_failing_order" and tools.check is not None


def test_a_scenario_of_another_suite_gets_the_reference_objects_it_knows() -> None:
    sandbox = next(
        s for s in load_suite("sandbox").scenarios if s.id == "sandbox_add_coworker_contact"
    )
    tools = offered(sandbox)
    shown = {s["function"]["name"]: s["function"] for s in tools.schemas}
    assert shown["add_contact"] == DATA.functions["none"]["add_contact"]


def context(**changes: object) -> AssistantContext:
    base = AssistantContext(
        scenario_id="x",
        trial=0,
        messages=(Message(index=0, sender="user", recipient="assistant", content="Hi"),),
        tools=({"type": "function", "function": DATA.functions["none"]["get_wifi_status"]},),
        system_prompt="Be careful.",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_the_body_has_exactly_the_references_keys() -> None:
    settings = PRESENTATION.settings(ModelOptions().resolve())
    body = PRESENTATION.assistant_request("gpt-4o-2024-05-13", settings, context())
    assert list(body) == ["messages", "model", "tools"]
    assert body["messages"][0] == {"role": "system", "content": "Be careful."}


def test_sampling_a_run_sets_goes_where_openai_puts_it() -> None:
    settings = PRESENTATION.settings(ModelOptions(temperature=0.5, seed=7).resolve())
    body = PRESENTATION.assistant_request("m", settings, context(trial=2))
    assert list(body) == ["messages", "model", "seed", "temperature", "tools"]
    assert body["seed"] == 9 and body["temperature"] == 0.5


def user_context(suite, after_failed_call: bool = False) -> UserContext:  # type: ignore[no-untyped-def]
    said = [
        Message(index=1, sender="user", recipient="assistant", content="Text Fredrik"),
        Message(index=2, sender="assistant", recipient="user", content="Sent."),
    ]
    return UserContext(scenario(suite, BASE), 0, tuple(said), after_failed_call=after_failed_call)


def test_the_users_body_offers_its_end_conversation_unless_its_call_failed(suite) -> None:  # type: ignore[no-untyped-def]
    settings = PRESENTATION.settings(ModelOptions().resolve())
    body = PRESENTATION.user_request("m", settings, user_context(suite))
    assert list(body) == ["messages", "model", "tools"]
    assert body["tools"] == [
        {"type": "function", "function": DATA.user_functions["none"]["end_conversation"]}
    ]
    assert body["messages"][-1] == {"role": "user", "content": "Sent."}
    again = PRESENTATION.user_request("m", settings, user_context(suite, after_failed_call=True))
    assert list(again) == ["messages", "model"] and again["messages"] == body["messages"]


def test_end_conversation_with_arguments_fails() -> None:
    def call(arguments: str) -> ToolCall:
        return ToolCall(id="e", name="end_conversation", arguments=arguments)

    assert PRESENTATION.user_call_error(call("{}")) is None
    assert PRESENTATION.user_call_error(call("")) is None
    assert PRESENTATION.user_call_error(call('{"reason": "done"}')) is not None


def test_the_references_message_budget() -> None:
    def message(sender: str, calls: int = 0) -> Message:
        tool_calls = tuple(ToolCall(id=f"c{i}", name="x", arguments="{}") for i in range(calls))
        recipient = "environment" if calls else "assistant"
        return Message(index=0, sender=sender, recipient=recipient, tool_calls=tool_calls)  # type: ignore[arg-type]

    bus = [message("system"), message("user"), message("assistant", calls=3)]
    bus += [message("environment")] * 3 + [message("assistant")]
    assert PRESENTATION.budget_used(bus) == 7  # after the opening, each call and result apart
    assert PRESENTATION.budget_used(bus[:1]) == 0
    assert CATALOG.presentation("toolplay").budget_used(bus) is None


def test_departures_from_the_papers_setup() -> None:
    paper = {"presentation": "toolsandbox", "user": "openai:gpt-4o-2024-05-13", "mode": "dynamic"}
    assert paper_setup(paper) == []
    scripted = paper_setup({**paper, "user": "scripted"})
    assert len(scripted) == 1 and "scripted user" in scripted[0]
    assert "gpt-4o-2024-05-13" in paper_setup({**paper, "user": "openai:gpt-4o"})[0]
    hot = paper_setup({**paper, "assistant_model": {"temperature": 0.0}})
    assert hot == [  # the user's options fall back to the assistant's
        "assistant temperature 0.0 is sent; the paper's requests send none",
        "user temperature 0.0 is sent; the paper's requests send none",
    ]
    user_hot = paper_setup({**paper, "assistant_model": {}, "user_model": {"seed": 3}})
    assert user_hot == ["user seed 3 is sent; the paper's requests send none"]
    assert "presentation 'toolplay'" in paper_setup({**paper, "presentation": "toolplay"})[0]


def test_the_data_is_the_exporters_with_its_licence_and_provenance() -> None:
    import hashlib

    from toolplay.methods.toolsandbox._shown import FOLDER

    provenance = json.loads((FOLDER / "PROVENANCE.json").read_text(encoding="utf-8"))
    assert provenance["commit"] == "165848b"
    for name, digest in provenance["files"].items():  # no hand edits since the export
        assert hashlib.sha256((FOLDER / name).read_bytes()).hexdigest() == digest, name
    for name in provenance["files"]:
        assert "Apple" in json.loads((FOLDER / name).read_text(encoding="utf-8"))["licence"]
    assert (FOLDER.parent / "LICENSE").exists()
    # every base has its 8 settings
    assert all(len(settings) == 8 for settings in DATA.scenarios.values())
    assert len(DATA.scenarios) == 129  # every base of the paper's 1,032 scenarios
