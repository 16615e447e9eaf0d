"""Each ToolTalk plugin's OpenAI tool schemas match their JSON snapshot.

Descriptions are text the model reads: any change shows up here. After an intended change,
regenerate with `TOOLPLAY_UPDATE_SNAPSHOTS=1 pytest tests/tooltalk/test_schemas.py` and review
the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from support import registry_for
from toolplay.domains.tooltalk import AUTH_TOOLS, DOMAIN_NAMES
from toolplay.methods.tooltalk._texts import reference_texts

SNAPSHOTS = Path(__file__).parent / "schemas"
ACTIONS = {
    "ChangePassword",
    "DeleteAccount",
    "LogoutUser",
    "RegisterUser",
    "ResetPassword",
    "SendVerificationCode",
    "UpdateAccountInformation",
    "UserLogin",
    "AddAlarm",
    "DeleteAlarm",
    "CreateEvent",
    "DeleteEvent",
    "ModifyEvent",
    "SendEmail",
    "SendMessage",
    "AddReminder",
    "CompleteReminder",
    "DeleteReminder",
}


@pytest.mark.parametrize("domain", DOMAIN_NAMES)
def test_schema_snapshot(domain: str) -> None:
    registry = registry_for([domain])
    schemas = [s.schema for s in registry.tools.values() if s.domain == domain]
    text = json.dumps(schemas, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    path = SNAPSHOTS / f"{domain}.json"
    if os.environ.get("TOOLPLAY_UPDATE_SNAPSHOTS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot for {domain}; run with TOOLPLAY_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8")


def test_28_tools_with_reference_action_flags_and_no_session_argument() -> None:
    registry = registry_for(DOMAIN_NAMES)
    assert len(registry.tools) == 28
    assert {n for n, s in registry.tools.items() if s.kind == "action"} == ACTIONS
    assert set(registry.tools) >= AUTH_TOOLS
    for spec in registry.tools.values():
        assert "session_token" not in spec.schema["function"]["parameters"]["properties"]


def _said(description: str) -> str:
    """A description reduced to its words (case, a leading article and the full stop aside)."""
    words = description.lower().strip().rstrip(".").split()
    return " ".join(words[1:] if words[:1] in (["the"], ["a"], ["an"]) else words)


def test_descriptions_are_toolplays_own_words_not_the_references() -> None:
    """toolplay's presentation sends its tools' docstrings; the reference's descriptions are
    data the `tooltalk` presentation sends, never copied into a docstring."""
    functions = reference_texts().functions
    registry = registry_for(DOMAIN_NAMES)
    for name, spec in registry.tools.items():
        own, theirs = spec.schema["function"], functions[name]
        assert _said(own["description"]) != _said(theirs["description"]), name
        for parameter, schema in own["parameters"]["properties"].items():
            reference = theirs["parameters"]["properties"][parameter]["description"]
            assert _said(schema["description"]) != _said(reference), f"{name}.{parameter}"
