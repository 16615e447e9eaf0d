"""AutoDE's reference presentation (`autode`): each rendering rule, the answer reader, the user
agent, the round limit, default prompts and the paper's setup."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import support
from toolplay.clients import ChatReply, ModelOptions, ModelSettings
from toolplay.conversation import PlaySettings
from toolplay.messages import Message, Trajectory
from toolplay.methods.autode import (
    AutodePresentation,
    call_style,
    paper_departures,
    protocol_prompt,
    read_text_call,
    reference_texts,
    without_tag,
)
from toolplay.roles import AssistantContext, UserContext, user_system_prompt
from toolplay.scenarios import Scenario, Suite
from toolplay.testing import ChatServer, scripted, text

TEXTS = reference_texts()
PRESENTATION = AutodePresentation()
SUBMIT = TEXTS.submit_suffix


@pytest.fixture(scope="module")
def bluetooth(autode_suite: Suite) -> Scenario:
    return autode_suite.scenarios[0]  # TurnOnBluetooth(deviceType=watch), one user turn


@pytest.fixture(scope="module")
def prompts(autode_dir: Path) -> dict[str, str]:
    names = ("v1", "llama_v2", "llama_v2_static", "claude_v1", "zephyr_v2")
    return {n: (autode_dir / "prompts" / f"prompt_eng_system_{n}.txt").read_text() for n in names}


def tools(scenario: Scenario) -> tuple[dict[str, Any], ...]:
    return support.offered_tools(scenario).schemas


def bus(prompt: str, *turns: tuple[str, str]) -> tuple[Message, ...]:
    messages = [Message(index=0, sender="system", recipient="assistant", content=prompt)]
    for sender, content in turns:
        recipient = "assistant" if sender == "user" else "user"
        messages.append(
            Message(index=len(messages), sender=sender, recipient=recipient, content=content)  # type: ignore[arg-type]
        )
    return tuple(messages)


def context(
    scenario: Scenario, base: str | None, *turns: tuple[str, str], force: bool = False
) -> AssistantContext:
    prompt = protocol_prompt(base, tools(scenario))
    return AssistantContext(
        scenario.id, 0, bus(prompt, *turns), tools(scenario), prompt, force_tool_call=force
    )


def request(ctx: AssistantContext, **settings: Any) -> dict[str, Any]:
    return PRESENTATION.assistant_request(
        "m", PRESENTATION.settings(ModelSettings(**settings)), ctx
    )


# -- which path a prompt takes ----------------------------------------------------------------


def test_the_prompt_family_decides_the_path(bluetooth: Scenario, prompts: dict[str, str]) -> None:
    first = ("user", bluetooth.script[0])
    assert call_style(context(bluetooth, prompts["v1"], first)) == "functions"
    assert call_style(context(bluetooth, None, first)) == "functions"  # toolplay's own prompt
    for family in ("llama_v2", "llama_v2_static", "zephyr_v2"):
        assert call_style(context(bluetooth, prompts[family], first)) == "text"
    assert call_style(context(bluetooth, prompts["claude_v1"], first)) == "question"


def test_family_tags_are_removed_as_the_reference_removes_them(autode_dir: Path) -> None:
    for path in sorted((autode_dir / "prompts").glob("prompt_eng_system_*.txt")):
        raw = path.read_text()
        tag = next(t for t in TEXTS.family_tags.values() if raw.startswith(t))
        assert without_tag(raw) == raw.strip(tag)
    # str.strip semantics: the tag's characters go from both ends, as in eval.py
    assert without_tag("[Llama]Hi llama") == "Hi "
    assert without_tag("[Mine] Hi") == " Hi"  # a tag of the user's own: at the start only


# -- the gpt path -------------------------------------------------------------------------------


def test_gpt_requests_are_legacy_functions_with_function_call_and_no_temperature(
    bluetooth: Scenario, prompts: dict[str, str]
) -> None:
    body = request(context(bluetooth, prompts["v1"], ("user", bluetooth.script[0])))
    assert list(body) == ["messages", "functions", "function_call", "model"]
    assert body["function_call"] == "auto"
    assert body["functions"] == [tools(bluetooth)[0]["function"]]
    assert body["messages"][0] == {"role": "system", "content": without_tag(prompts["v1"])}
    forced = request(context(bluetooth, prompts["v1"], ("user", "x"), force=True))
    assert forced["function_call"] == {"name": "TurnOnBluetooth"}
    assert forced["messages"][-1]["content"] == "x"  # no SUBMIT API on this path


def test_sampling_is_sent_only_when_the_run_sets_it(bluetooth: Scenario) -> None:
    ctx = context(bluetooth, None, ("user", "hi"))
    assert "temperature" not in request(ctx) and "seed" not in request(ctx)
    body = request(ctx, temperature=0.5, seed=3, max_tokens=9)
    assert (body["temperature"], body["seed"], body["max_tokens"]) == (0.5, 3, 9)


def test_the_tools_wire_carries_the_same_content(bluetooth: Scenario) -> None:
    ctx = context(bluetooth, None, ("user", "hi"), force=True)
    body = request(ctx, wire="tools")
    assert list(body) == ["messages", "tools", "tool_choice", "model"]
    assert body["tools"] == list(tools(bluetooth))
    assert body["tool_choice"] == {"type": "function", "function": {"name": "TurnOnBluetooth"}}


def test_the_gpt_path_reads_function_call_and_never_func_text(bluetooth: Scenario) -> None:
    ctx = context(bluetooth, None, ("user", "hi"))
    prose = ChatReply(content='<func>{"deviceType": "watch"}</func>')
    assert PRESENTATION.read_reply(prose, ctx) == prose


# -- the Llama / Zephyr text path ---------------------------------------------------------------


def test_text_prompts_get_no_tools_and_the_documentation_in_the_prompt(
    bluetooth: Scenario, prompts: dict[str, str]
) -> None:
    body = request(context(bluetooth, prompts["llama_v2"], ("user", bluetooth.script[0])))
    assert list(body) == ["model", "messages"]
    system = body["messages"][0]["content"]
    assert TEXTS.api_doc_placeholder not in system
    doc = {"name": "TurnOnBluetooth", "description": tools(bluetooth)[0]["function"]["description"]}
    assert json.dumps(doc, ensure_ascii=False)[:-1] in system


def test_a_forced_text_call_appends_the_reference_cue_to_the_request_only(
    bluetooth: Scenario, prompts: dict[str, str]
) -> None:
    ctx = context(
        bluetooth,
        prompts["llama_v2_static"],
        ("user", "a"),
        ("assistant", "b"),
        ("user", "c"),
        force=True,
    )
    body = request(ctx)
    assert [m["content"] for m in body["messages"][1:]] == ["a", "b", "c" + SUBMIT]
    assert "do_function_call" not in body and "tool_choice" not in body
    assert ctx.messages[-1].content == "c"


@pytest.mark.parametrize(
    ("reply", "arguments"),
    [
        ('<func>{"a": "1"}</func>', '{"a": "1"}'),
        ('Sure: <func>\n  {"a": "1"}\n</func> done', '{"a": "1"}'),
        ('```\n<func>{"a": "1"}</func>\n```', '{"a": "1"}'),
        ('<func>{"a": "1"}</func><func>{"a": "2"}</func>', '{"a": "1"}'),
        ('<func>{"a": "1"}', "{}"),  # unclosed: the reference's empty call
        ('<func>{"a": "1"}<func/>', "{}"),
        ('<func><func>{"a": "1"}</func></func>', '<func>{"a": "1"}'),
        ("<func></func>", ""),
        ('<func>{"a": "1"}</func> [DONE]', '{"a": "1"}'),  # the call wins over the marker
        ('<FUNC>{"a": "1"}</FUNC>', None),
        ('[func]{"a": "1"}[/func]', None),
        ("Which device? [DONE]", None),
    ],
)
def test_a_text_call_is_read_as_the_reference_reads_it(reply: str, arguments: str | None) -> None:
    assert read_text_call(reply) == arguments


def test_a_text_reply_with_a_call_becomes_a_call_to_the_offered_api(
    bluetooth: Scenario, prompts: dict[str, str]
) -> None:
    ctx = context(bluetooth, prompts["llama_v2"], ("user", "hi"))
    text_reply = 'OK <func>{"functionName": "X", "deviceType": "watch"}</func>'
    read = PRESENTATION.read_reply(ChatReply(content=text_reply), ctx)
    (call,) = read.tool_calls
    assert call.name == "TurnOnBluetooth" and call.id == "call_0"
    assert call.arguments == '{"functionName": "X", "deviceType": "watch"}'
    assert read.content == text_reply
    plain = ChatReply(content="Which device?")
    assert PRESENTATION.read_reply(plain, ctx) == plain


# -- the Claude path ----------------------------------------------------------------------------


def test_question_prompts_have_no_system_message(
    bluetooth: Scenario, prompts: dict[str, str]
) -> None:
    ctx = context(
        bluetooth, prompts["claude_v1"], ("user", "q0"), ("assistant", "a"), ("user", "b")
    )
    body = request(ctx)
    assert list(body) == ["messages", "model"]
    first, *rest = body["messages"]
    assert first["role"] == "user" and first["content"].endswith("q0")
    assert TEXTS.question_placeholder not in first["content"]
    assert rest == [{"role": "assistant", "content": "a"}, {"role": "user", "content": "b"}]
    single = request(context(bluetooth, prompts["claude_v1"], ("user", "q0"), force=True))
    assert len(single["messages"]) == 1 and single["messages"][0]["content"].endswith("q0" + SUBMIT)


# -- the user agent -----------------------------------------------------------------------------


def user_context(scenario: Scenario, instructions: str | None, *turns: str) -> UserContext:
    senders = ["user", "assistant"]
    view = tuple(
        Message(index=i, sender=senders[i % 2], recipient=senders[(i + 1) % 2], content=t)  # type: ignore[arg-type]
        for i, t in enumerate(turns)
    )
    return UserContext(scenario, 0, view, instructions)


def test_the_user_agent_gets_the_reference_chat_and_no_tools(
    bluetooth: Scenario, autode_dir: Path
) -> None:
    ctx = user_context(bluetooth, "PROMPT\n", bluetooth.script[0], "Which device? ")
    body = PRESENTATION.user_request("u", ModelSettings(), ctx)
    assert list(body) == ["model", "messages"]
    label = bluetooth.metadata["label"]
    briefing = (
        "PROMPT\n"
        + bluetooth.metadata["autode"]["background"]
        + TEXTS.user_briefing_before_api
        + label["name"]
        + TEXTS.user_briefing_before_slots
        + json.dumps(label["arguments"], ensure_ascii=False)
    )
    assert body["messages"] == [
        {"role": "system", "content": briefing},
        {"role": "user", "content": TEXTS.user_agent_opener},
        {"role": "assistant", "content": bluetooth.script[0]},
        {"role": "user", "content": "Which device? "},
    ]
    default = PRESENTATION.user_request("u", ModelSettings(), user_context(bluetooth, None, "q"))
    user_prompt = (autode_dir / "prompts" / "prompt_eng_user_v3.txt").read_text()
    assert default["messages"][0]["content"].startswith(user_prompt)


def test_the_user_agent_reply_loses_the_stop_marker() -> None:
    ctx = user_context(support.load_suite("autode").scenarios[0], None)
    read = PRESENTATION.read_user_reply(ChatReply(content="  Bye [DONE] \n"), ctx)
    assert read.content == "Bye"


# -- played against an endpoint -----------------------------------------------------------------


@pytest.fixture()
def server() -> Iterator[ChatServer]:
    with ChatServer(scripted([text("?")])) as running:
        yield running


def play(
    server: ChatServer,
    scenario: Scenario,
    mode: str = "autode-protocol",
    presentation: str = "autode",
    **settings: Any,
) -> Trajectory:
    options = ModelOptions(base_url=server.base_url, max_retries=0)
    chosen = support.CATALOG.presentation(presentation)
    assistant = support.CATALOG.build_assistant("openai:a", options, presentation=chosen)
    user = support.CATALOG.build_user("openai:u", options, presentation=chosen)
    return asyncio.run(
        support.play(
            mode,
            scenario,
            assistant,
            user,
            settings=PlaySettings(**settings),
            presentation=presentation,
        )
    )


def roles(server: ChatServer) -> list[str]:
    bodies = [r.body for r in server.requests]
    return ["assistant" if "function_call" in b or "tools" in b else "user" for b in bodies]


def test_the_user_agent_answers_the_last_text_before_the_round_limit(
    server: ChatServer, bluetooth: Scenario
) -> None:
    trajectory = play(server, bluetooth)
    assert trajectory.termination == "turn_limit"
    assert roles(server) == ["assistant", "user"] * 8  # the reference's 8 + 8
    assert trajectory.messages[-1].sender == "user"
    score = support.score(bluetooth, trajectory)
    assert support.details(score)["failure"] == "round_limit"


def test_toolplay_presentation_keeps_its_own_round_limit(
    server: ChatServer, bluetooth: Scenario
) -> None:
    play(server, bluetooth, presentation="toolplay")
    bodies = [r.body for r in server.requests]
    assert len(bodies) == 15 and all(b.get("temperature") == 0 for b in bodies)


def test_default_prompts_come_from_the_checkout(
    server: ChatServer, bluetooth: Scenario, autode_dir: Path
) -> None:
    play(server, bluetooth, max_rounds=1)
    assistant, user = (r.body for r in server.requests)
    gpt = (autode_dir / "prompts" / "prompt_eng_system_v1.txt").read_text()
    assert assistant["messages"][0]["content"] == without_tag(gpt)
    user_prompt = (autode_dir / "prompts" / "prompt_eng_user_v3.txt").read_text()
    assert user["messages"][0]["content"].startswith(user_prompt)


def test_a_checkout_without_prompts_falls_back_to_toolplay_s_and_says_so(
    server: ChatServer, autode_dir: Path, tmp_path: Path
) -> None:
    for part in ("datasets", "API_list.xlsx"):
        (tmp_path / part).symlink_to(autode_dir / part)
    scenario = support.load_suite(f"autode-data:{tmp_path}").scenarios[0]
    play(server, scenario, max_rounds=1)
    assistant, user = (r.body for r in server.requests)
    assert assistant["messages"][0]["content"] == protocol_prompt(None, tools(scenario))
    assert user["messages"][0]["content"] == user_system_prompt(scenario, None)
    found = paper_departures(config(suite=f"autode-data:{tmp_path}?required=all"))
    assert [d.split(":")[0] for d in found] == [
        "the checkout has no prompts/prompt_eng_system_v1.txt",
        "the checkout has no prompts/prompt_eng_user_v3.txt",
    ]
    assert paper_departures(config(suite=f"autode-data:{autode_dir}")) == []


# -- the paper's setup --------------------------------------------------------------------------


def config(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "presentation": "autode",
        "mode": None,
        "user": "openai:gpt-3.5-turbo-16k-0613",
        "assistant_model": {},
        "user_model": {},
        "play": {},
    }
    return {**base, **changes}


def test_the_paper_setup_has_no_departures() -> None:
    assert paper_departures(config()) == []
    assert paper_departures(config(user="openai:meta-llama/Llama-2-7b-chat-hf")) == []
    assert paper_departures(config(mode="static", user="scripted")) == []


def test_each_departure_from_the_paper_is_named(autode_dir: Path) -> None:
    prompts = autode_dir / "prompts"
    cases = {
        "presentation 'toolplay'": config(presentation="toolplay"),
        "the user is 'scripted'": config(user="scripted"),
        "the user agent is 'openai:gpt-4o'": config(user="openai:gpt-4o"),
        "the assistant is sent temperature=0.0": config(
            mode="static", assistant_model={"temperature": 0.0}
        ),
        "the user agent is sent temperature=1.0": config(user_model={"temperature": 1.0}),
        "the tools wire": config(assistant_model={"wire": "tools"}),
        "max_rounds=3": config(play={"max_rounds": 3}),
        "submit_text": config(play={"submit_text": "SUBMIT"}),
        "not one of the reference's prompt files": config(play={"system_prompt": "Be good."}),
        "in a static run": config(
            mode="static",
            play={"system_prompt": (prompts / "prompt_eng_system_v1.txt").read_text()},
        ),
        "the user agent prompt": config(play={"user_prompt": "Act."}),
    }
    for expected, case in cases.items():
        found = paper_departures(case)
        assert len(found) == 1 and expected in found[0], (expected, found)
    both = paper_departures(config(assistant_model={"seed": 1}))  # the user agent's falls back
    assert [d.split(" is sent")[0] for d in both] == ["the assistant", "the user agent"]
    static = (prompts / "prompt_eng_system_llama_v2_static.txt").read_text()
    assert paper_departures(config(mode="static", play={"system_prompt": static})) == []


# -- scoring a model that follows the text prompts ----------------------------------------------


def test_answers_written_as_the_llama_prompts_ask_score_as_in_the_reference(
    autode_dir: Path, autode_suite: Suite, tmp_path: Path
) -> None:
    first = autode_suite.scenarios[:40]
    by_query = {s.script[0]: s for s in first}

    def follows_the_prompt(body: dict[str, Any]) -> dict[str, Any]:
        query = next(m["content"] for m in body["messages"] if m["role"] == "user")
        label = by_query[query.removesuffix(SUBMIT)].metadata["label"]
        call = json.dumps({"functionName": label["name"], **label["arguments"]})
        return {"content": f"Here it is: <func>{call}</func>"}

    prompts = autode_dir / "prompts"
    for mode, prompt in (("dynamic", "llama_v2"), ("static", "llama_v2_static")):
        with ChatServer(follows_the_prompt) as server:
            code, output, summary = support.run_on_endpoint(
                server.base_url,
                tmp_path / mode,
                "--suite",
                f"autode-data:{autode_dir}",
                "--limit",
                "40",
                "--mode",
                mode,
                "--user",
                "openai:meta-llama/Llama-2-7b-chat-hf",
                "--system-prompt",
                str(prompts / f"prompt_eng_system_{prompt}.txt"),
            )
            assert code == 0, output
            assert summary["presentation"] == "autode" and summary.get("departures") is None
            assert summary["completed"] == 40 and summary["metrics"]["slot_f1"] == 1.0
            assert all("tools" not in r.body for r in server.requests)


def test_the_user_agent_s_stop_marker_never_reaches_the_assistant(
    bluetooth: Scenario, prompts: dict[str, str]
) -> None:
    answers = [
        text("Which device? "),
        text(" It's the watch. [DONE] \n"),
        text('<func>{"deviceType": "watch"}</func>'),
    ]
    with ChatServer(scripted(answers)) as running:
        trajectory = play(running, bluetooth, system_prompt=prompts["llama_v2"])
        last = running.requests[-1].body["messages"][-1]
    assert last == {"role": "user", "content": "It's the watch."}
    assert support.score(bluetooth, trajectory).score == 1.0
