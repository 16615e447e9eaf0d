"""Every request toolplay sends under the `tooltalk` presentation is the reference's, byte for byte.

`data/reference_requests.json` holds the sha256 of every request the ToolTalk reference's own
evaluation loop built (`scripts/tooltalk_export/capture.py`: microsoft/ToolTalk e05f4ce under
openai 0.28.1, its model client replaced) for a few official conversations per setting, the
model answering with canned answers (`scripts/tooltalk_export/_policies.py`: ground-truth calls,
failing calls, unreadable arguments, odd values, copied session tokens, text beside calls,
logouts and logins, partial updates, the API modes and the documentation ablation). Here
toolplay plays the same conversations in static mode with the same answers; each request body
(`json.dumps` of it: what the HTTP client sends) must have the same digest. The conversations
are read from ../shared (never stored here); without them the tests skip.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from support import CATALOG, setup
from toolplay.cli import app
from toolplay.clients import ChatClient, ModelSettings
from toolplay.conversation import PlayRequest, PlaySettings
from toolplay.roles import ChatAssistant, ScriptedUser
from toolplay.scenarios import Suite
from toolplay.testing import ChatServer

EXPORTER = Path(__file__).resolve().parents[2] / "scripts" / "tooltalk_export"
sys.path.insert(0, str(EXPORTER))
import _policies  # noqa: E402

sys.path.remove(str(EXPORTER))

CAPTURED = json.loads((Path(__file__).parent / "data" / "reference_requests.json").read_text())
PRESENTATION = {"all": "tooltalk", "suite": "tooltalk-suite", "exact": "tooltalk-exact"}
runner = CliRunner()


class PolicyBackend:
    """A chat endpoint answering as a capture policy; keeps every request body it was sent."""

    endpoint = "test://policy"

    def __init__(self, policy: _policies.Policy) -> None:
        self.policy = policy
        self.bodies: list[str] = []

    async def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        self.bodies.append(json.dumps(request))
        message = self.policy(request)
        return {"choices": [{"index": 0, "message": message}], "usage": {}}

    async def aclose(self) -> None:
        return None


def play(
    suite: Suite, data: Path, file: str, setting: dict[str, Any]
) -> tuple[list[str], PolicyBackend]:
    """toolplay's request bodies for one captured conversation and setting."""
    scenario = next(s for s in suite.scenarios if s.metadata["file"] == file)
    conversation = json.loads((data / file).read_text(encoding="utf-8"))
    backend = PolicyBackend(_policies.POLICIES[setting["policy"]](conversation))
    presentation = CATALOG.presentation(PRESENTATION[setting.get("api_mode", "all")])
    settings = presentation.settings(ModelSettings(record_exchanges=False))
    assistant = ChatAssistant("policy", "gpt-4", ChatClient(backend), settings, {}, presentation)
    augment = ("no_docs",) if setting.get("disable_documentation") else ()
    request = PlayRequest(
        setup(scenario), assistant, ScriptedUser(), 0, PlaySettings(), augment, presentation
    )
    trajectory = asyncio.run(CATALOG.mode("static").play(request))
    assert trajectory.termination == "completed", trajectory.error
    return backend.bodies, backend


CASES = [
    (name, file) for name, conversations in CAPTURED["requests"].items() for file in conversations
]


@pytest.mark.parametrize(("setting", "file"), CASES, ids=[f"{s}:{f}" for s, f in CASES])
def test_each_request_is_the_references(
    setting: str, file: str, tooltalk_dir: Path, tooltalk_suite: Suite
) -> None:
    expected = CAPTURED["requests"][setting][file]
    bodies, _ = play(tooltalk_suite, tooltalk_dir, file, CAPTURED["settings"][setting])
    assert len(bodies) == len(expected), (
        f"{len(bodies)} requests; the reference sent {len(expected)}"
    )
    for number, (body, reference) in enumerate(zip(bodies, expected, strict=True)):
        digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
        where = f"request {number} (turn {reference['turn']}, step {reference['step']})"
        assert digest == reference["sha256"], f"{where} differs; toolplay sent:\n{body}"


def test_the_captures_cover_every_setting_and_each_split() -> None:
    assert set(CAPTURED["requests"]) == set(_policies.SETTINGS)
    for conversations in CAPTURED["requests"].values():
        assert {file.split("/")[0] for file in conversations} == {"easy", "tooltalk"}
    assert sum(len(r) for c in CAPTURED["requests"].values() for r in c.values()) > 500


def test_the_cli_sends_the_references_bytes_and_records_the_setup(
    tooltalk_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`toolplay run --suite tooltalk:DIR` against an endpoint on 127.0.0.1: the bodies it
    receives are the reference's; `config.json` names the presentation; a temperature the run
    sets is sent and recorded as a departure from the paper's setup."""
    file = "easy/AddAlarm-easy.json"
    conversation = json.loads((tooltalk_dir / file).read_text())
    expected = [r["sha256"] for r in CAPTURED["requests"]["gt"][file]]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    for extra, departures in (([], []), (["--temperature", "0"], ["temperature 0.0 sent"])):
        policy = _policies.POLICIES["gt"](conversation)
        with ChatServer(policy) as server:
            out = tmp_path / f"run{len(extra)}"
            args = ["run", "--suite", f"tooltalk:{tooltalk_dir}", "--limit", "1"]
            args += ["--assistant", "openai:gpt-4", "--base-url", server.base_url]
            result = runner.invoke(app, [*args, "--out", str(out), *extra])
            assert result.exit_code == 0, result.output
            bodies = [json.dumps(r.body) for r in server.requests]
        digests = [hashlib.sha256(b.encode()).hexdigest() for b in bodies]
        assert (digests == expected) is not extra, bodies
        assert json.loads((out / "config.json").read_text())["presentation"] == "tooltalk"
        summary = json.loads((out / "summary.json").read_text())
        found = summary.get("departures", [])
        assert [d.split(":")[0] for d in found] == departures
