"""Issue 14 item 8: an assistant under test sees what a real assistant would, nothing more.

A `python:` assistant that declares `context` walks every object reachable from what it is
given and records every string it finds; neither the reference solution, nor a milestone, nor
the user's goal or knowledge may be among them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import pytest

from support import build_assistant, parse_scenario, play_dynamic
from toolplay.roles import ScriptedUser

SECRETS = {
    "reply": "SECRET-REFERENCE-REPLY",
    "milestone": "SECRET_MILESTONE_ID",
    "goal": "SECRET-USER-GOAL",
    "knowledge": "SECRET-USER-KNOWLEDGE",
}

SCENARIO = {
    "id": "peek",
    "categories": ["single_tool_call"],
    "world": {
        "domains": ["settings"],
        "tables": {
            "settings": [
                {
                    "cellular": True,
                    "wifi": False,
                    "location_service": True,
                    "low_battery_mode": False,
                    "latitude": 1.0,
                    "longitude": 2.0,
                }
            ]
        },
    },
    "user": {
        "script": ["Please turn on wifi."],
        "goal": SECRETS["goal"],
        "knowledge": SECRETS["knowledge"],
    },
    "reference": [
        {
            "user": "Please turn on wifi.",
            "calls": [{"name": "set_wifi_status", "arguments": {"enabled": True}}],
            "reply": SECRETS["reply"],
        }
    ],
    "milestones": [
        {
            "id": SECRETS["milestone"],
            "constraints": [{"kind": "state", "table": "settings", "rows": [{"wifi": True}]}],
        }
    ],
}

AGENT = """
import dataclasses

FOUND = []

def _walk(value, seen):
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, str):
        FOUND.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _walk(k, seen)
            _walk(v, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _walk(v, seen)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            _walk(getattr(value, f.name), seen)
    elif hasattr(value, "model_dump"):
        _walk(value.model_dump(mode="json"), seen)
    elif hasattr(value, "__dict__"):
        _walk(vars(value), seen)
    FOUND.append(repr(value))

def peek(messages, tools, context):
    _walk([messages, tools, context], set())
    return "I cannot do that."
"""


@pytest.fixture()
def agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    (tmp_path / "peeking_agent.py").write_text(textwrap.dedent(AGENT))
    monkeypatch.syspath_prepend(str(tmp_path))
    import peeking_agent  # type: ignore[import-not-found]

    peeking_agent.FOUND.clear()
    return peeking_agent


def test_a_python_assistant_cannot_reach_the_reference_milestones_or_goal(agent: Any) -> None:
    scenario = parse_scenario(SCENARIO, "peek.yaml")
    trajectory = asyncio.run(
        play_dynamic(scenario, build_assistant("python:peeking_agent:peek"), ScriptedUser())
    )
    assert trajectory.termination != "assistant_error", trajectory.error
    seen = "\n".join(agent.FOUND)
    assert "Please turn on wifi." in seen  # the walk does reach the conversation
    assert "set_wifi_status" in seen  # and the tools
    for what, secret in SECRETS.items():
        assert secret not in seen, f"the assistant could read the {what}"


def test_the_context_has_no_scenario_and_no_reference_for_an_assistant_under_test() -> None:
    from toolplay.roles import AssistantContext

    names = {f.name for f in dataclasses.fields(AssistantContext)}
    assert "scenario" not in names
    assert {"scenario_id", "trial", "messages", "tools", "system_prompt"} <= names
