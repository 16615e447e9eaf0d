"""Parity with the AutoDE reference: toolplay's requests equal the ones its eval.py sends.

`data/reference_requests.json` holds, for a few dialogues of each of the reference's settings
(every `python -m evaluators.eval` of its scripts), the SHA-256 of what each request of the
assistant and of the user agent carries, the model name left out (written by
`scripts/autode_request_digests.py` from captures of the reference's own code; the bodies embed
the dataset, so only digests are stored). Both sides were fed the same canned answers, rebuilt
here from the data: the assistant asks for the first slot once (dynamic), then calls with the
gold slots the way its prompt family calls (gpt: `function_call`; others: `<func>` text), or,
in the `functext` variant, always answers in `<func>` prose (which the gpt path does not read,
so those dialogues run to the round limit); the user agent names one gold slot per answer. The
run uses the suite's default presentation (`autode`) with the setting's prompt files.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import support
from toolplay.clients import ModelOptions
from toolplay.conversation import PlaySettings
from toolplay.methods.autode import reference_texts
from toolplay.scenarios import Scenario, Suite
from toolplay.testing import ChatServer

DIGESTS = json.loads((Path(__file__).parent / "data" / "reference_requests.json").read_text())
SETTINGS: dict[str, Any] = DIGESTS["settings"]
CASES = [
    (name, variant, dialogue["uuid"])
    for name, setting in sorted(SETTINGS.items())
    for variant, dialogues in sorted(setting["variants"].items())
    for dialogue in dialogues
]

ASK = "Got it. Which {slot} should I use? "
ASK_NOTHING = "Got it. Anything else I should know? "
PROSE = "Alright, here it is: <func>{call}</func>"
REPLY = " The {slot} is {value}. \n"
REPLY_NOTHING = " That's all. \n"


class Canned:
    """Answers each role of the dialogue being played with the captures' canned answers."""

    def __init__(self) -> None:
        self.record: dict[str, Any] = {}
        self.variant = "call"
        self.static = False
        self.seen: dict[str, list[dict[str, Any]]] = {"assistant": [], "user": []}

    def start(self, record: dict[str, Any], variant: str, static: bool) -> None:
        self.record, self.variant, self.static = record, variant, static
        self.seen = {"assistant": [], "user": []}

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        chat = [m for m in body.get("messages", []) if m.get("role") != "system"]
        opener = reference_texts().user_agent_opener
        role = "user" if chat and chat[0].get("content") == opener else "assistant"
        before = len(self.seen[role])
        self.seen[role].append(body)
        slots = list(self.record["slots"].items())
        if role == "user":
            if not slots:
                return {"content": REPLY_NOTHING}
            name, value = slots[before % len(slots)]
            return {"content": REPLY.format(slot=name, value=value)}
        if not self.static and before == 0:
            return {"content": ASK.format(slot=slots[0][0]) if slots else ASK_NOTHING}
        api, gold = self.record["api"], self.record["slots"]
        call = json.dumps({"functionName": api, **gold}, ensure_ascii=False)
        if self.variant == "functext":
            return {"content": PROSE.format(call=call)}
        if "functions" in body:
            arguments = json.dumps(gold, ensure_ascii=False)
            return {"content": None, "function_call": {"name": api, "arguments": arguments}}
        return {"content": f"<func>{call}</func>"}


def carried(body: dict[str, Any]) -> str:
    """What a toolplay request carries, as digested (the model name left out)."""
    return json.dumps({k: v for k, v in body.items() if k != "model"})


@pytest.fixture(scope="module")
def endpoint() -> Iterator[tuple[ChatServer, Canned]]:
    canned = Canned()
    with ChatServer(canned) as server:
        yield server, canned


@pytest.fixture(scope="module")
def records(autode_dir: Path) -> dict[str, dict[str, Any]]:
    lines = (autode_dir / "datasets" / "data_v1_2.jsonl").read_text().splitlines()
    return {r["uuid"]: r for r in map(json.loads, filter(None, lines))}


def play(server: ChatServer, scenario: Scenario, setting: dict[str, Any], prompts: Path) -> None:
    options = ModelOptions(base_url=server.base_url, max_retries=0)
    presentation = support.CATALOG.presentation("autode")
    assistant = support.CATALOG.build_assistant("openai:ref", options, presentation=presentation)
    user = support.CATALOG.build_user("openai:user", options, presentation=presentation)
    mode = "autode-protocol-static" if setting["static"] else "autode-protocol"
    settings = PlaySettings(
        system_prompt=(prompts.parent / setting["assistant_prompt"]).read_text(),
        user_prompt=(prompts.parent / setting["user_prompt"]).read_text(),
    )
    trajectory = asyncio.run(
        support.play(mode, scenario, assistant, user, settings=settings, presentation="autode")
    )
    assert trajectory.termination in ("completed", "turn_limit"), trajectory.error


@pytest.mark.parametrize(("name", "variant", "uuid"), CASES)
def test_every_request_carries_what_the_reference_sends(
    name: str,
    variant: str,
    uuid: str,
    endpoint: tuple[ChatServer, Canned],
    autode_suite: Suite,
    autode_dir: Path,
    records: dict[str, dict[str, Any]],
) -> None:
    server, canned = endpoint
    setting = SETTINGS[name]
    scenario = next(s for s in autode_suite.scenarios if s.id == uuid)
    canned.start(records[uuid], variant, setting["static"])
    play(server, scenario, setting, autode_dir / "prompts")
    expected = next(d for d in setting["variants"][variant] if d["uuid"] == uuid)["requests"]
    sent = {role: len(bodies) for role, bodies in canned.seen.items()}
    wanted = {role: sum(1 for r in expected if r["role"] == role) for role in sent}
    assert sent == wanted, f"requests per role: toolplay {sent}, the reference {wanted}"
    for request in expected:
        body = canned.seen[request["role"]][request["k"]]
        text = carried(body)
        assert hashlib.sha256(text.encode()).hexdigest() == request["sha256"], (
            f"{request['role']} request {request['k']} differs from the reference's; "
            f"toolplay sent:\n{json.dumps(body, indent=1, ensure_ascii=False)}"
        )


def test_the_digests_cover_every_runnable_setting_of_the_reference() -> None:
    # 21 invocations in the reference's scripts, less the gpt static one its eval.py refuses,
    # plus that one as its code would send it (read from a path containing "static").
    assert len(SETTINGS) == 21
    families = {s["assistant_prompt"] for s in SETTINGS.values()}
    assert "prompts/prompt_eng_system_v1.txt" in families  # the gpt path
    assert "prompts/prompt_eng_system_llama_v2.txt" in families  # the text path
    assert sum(1 for s in SETTINGS.values() if s["static"]) == 6
