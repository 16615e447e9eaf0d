"""`python:module:function` assistants: loading, calling conventions, failures."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from support import build_assistant, load_suite, play_dynamic, score_trajectory
from toolplay.clients import RoleOptionError
from toolplay.roles import ScriptedUser
from toolplay.roles._python import load_callable

WIFI = next(s for s in load_suite("quick").scenarios if s.id == "quick_wifi_on")

AGENT = """
import asyncio
from toolplay.roles import InfrastructureError

SEEN = []

def wifi(messages, tools):
    SEEN.append((messages, tools))
    if messages[-1]["role"] == "tool":
        return "Wifi is on now."
    return {"content": None, "tool_calls": [
        {"id": "c1", "function": {"name": "set_wifi_status", "arguments": {"on": True}}}]}

async def async_wifi(messages, tools, context):
    await asyncio.sleep(0)
    return wifi(messages, tools) if context.scenario_id else "?"

def broken(messages, tools):
    raise KeyError("agent bug")

def flaky(messages, tools):
    raise InfrastructureError("my backend is down")

def odd(messages, tools):
    return 42
"""


@pytest.fixture()
def agent_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "my_agent.py"
    path.write_text(textwrap.dedent(AGENT))
    monkeypatch.syspath_prepend(str(tmp_path))
    return path


def play(spec: str) -> Any:
    return asyncio.run(play_dynamic(WIFI, build_assistant(spec), ScriptedUser()))


@pytest.mark.parametrize("function", ["wifi", "async_wifi"])
def test_a_module_function_solves_the_scenario(agent_file: Path, function: str) -> None:
    trajectory = play(f"python:my_agent:{function}")
    assert trajectory.assistant == f"python:my_agent:{function}"
    assert score_trajectory(WIFI, trajectory).score == 1.0


def test_the_agent_gets_openai_messages_and_tools(agent_file: Path) -> None:
    import my_agent

    my_agent.SEEN.clear()
    play("python:my_agent:wifi")
    messages, tools = my_agent.SEEN[-1]
    assert messages[0]["role"] == "system" and messages[1]["role"] == "user"
    assert messages[-1]["role"] == "tool" and messages[-1]["tool_call_id"] == "c1"
    assert messages[-2]["tool_calls"][0]["function"]["name"] == "set_wifi_status"
    assert {t["function"]["name"] for t in tools} >= {"set_wifi_status"}


def test_a_file_path_works_too(agent_file: Path) -> None:
    assert score_trajectory(WIFI, play(f"python:{agent_file}:wifi")).score == 1.0


def test_agent_exceptions_are_assistant_errors_unless_infrastructure(agent_file: Path) -> None:
    broken = play("python:my_agent:broken")
    assert broken.termination == "assistant_error" and "agent bug" in (broken.error or "")
    flaky = play("python:my_agent:flaky")
    assert flaky.termination == "infrastructure_error" and "backend is down" in (flaky.error or "")
    odd = play("python:my_agent:odd")
    assert odd.termination == "assistant_error" and "expected str or dict" in (odd.error or "")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("python:nomodule", "expected python:module:function"),
        ("python:no_such_module_xyz:f", "No module named"),
        ("python:my_agent:missing", "has no attribute"),
        ("python:my_agent:SEEN", "not callable"),
        ("python:/nowhere/agent.py:f", "no such file"),
    ],
)
def test_bad_specs_are_refused(agent_file: Path, spec: str, message: str) -> None:
    with pytest.raises(RoleOptionError, match=message):
        build_assistant(spec)


def test_a_module_in_the_current_folder_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24 item 3: `python:my_agent:respond` beside the user's shell, as
    docs/getting-started.md has it (the `toolplay` script's folder, not the current one, starts
    Python's path)."""
    (tmp_path / "agent_beside_here.py").write_text(
        "def respond(messages, tools):\n    return 'hi'\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert load_callable("agent_beside_here:respond")([], []) == "hi"
    with pytest.raises(RoleOptionError, match="no_such_module_here"):
        load_callable("no_such_module_here:respond")
