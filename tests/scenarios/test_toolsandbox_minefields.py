"""Every exported ToolSandbox minefield fires: a trajectory generated from it scores 0.

The trajectories come from the minefields themselves (`_tripwires`), never written by hand:
for each minefield of each exported scenario, under each of the paper's 8 settings (scrambled
names included), the first generated trajectory that trips it is played and scored. Also: the
assistant's message to the environment is seen as the reference's bus holds its calls, and a
minefield no trajectory can trip is reported by `validate`.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import yaml

from support import CATALOG, load_suite, play_dynamic, score_milestones
from toolplay.messages import ToolCall
from toolplay.methods.toolsandbox._calltext import call_template, call_text
from toolplay.methods.toolsandbox._tripwires import minefield_probes
from toolplay.roles import OracleAssistant, ScriptedUser
from toolplay.scenarios import Scenario
from toolplay.validate import ProbeAssistant, validate_suite

SUITE = load_suite("toolsandbox")
MINED = [s for s in SUITE.scenarios if s.minefields]


def test_the_reference_minefields_of_both_kinds_are_exported() -> None:
    kinds = {c.kind for s in MINED for m in s.minefields for c in m.constraints}
    assert kinds == {"message", "tool_call"}
    bases = {s.base_id or s.id for s in MINED}
    assert len(bases) >= 16 and len(MINED) == 8 * len(bases)


@pytest.mark.parametrize("scenario", MINED, ids=lambda s: s.id)
def test_a_generated_trajectory_trips_each_minefield(scenario: Scenario) -> None:
    setup = CATALOG.setup(scenario)
    for probe in minefield_probes(setup):
        assert probe.candidates, probe.reason
        scores = []
        for candidate in probe.candidates:
            played = asyncio.run(play_dynamic(candidate, ProbeAssistant(), ScriptedUser()))
            scored = score_milestones(scenario, played)
            scores.append(scored)
            if probe.fired(scored):
                break
        else:
            pytest.fail(f"{probe.label}: no generated trajectory trips it")
        assert scores[-1].score == 0.0
        assert scores[-1].evidence.minefield_similarity > 0.0
    solved = asyncio.run(play_dynamic(scenario, OracleAssistant(), ScriptedUser()))
    assert score_milestones(scenario, solved).score == 1.0  # the solution trips none


def test_the_call_text_is_the_reference_code_shape() -> None:
    template = call_template()
    assert "{id}" in template and "{name}" in template and "{arguments}" in template
    call = ToolCall(id="call_1", name="setting_5", arguments='{"on": true, "x": null}')
    text = call_text(call, "set_cellular_service_status")
    assert "set_cellular_service_status(" in text and "setting_5" not in text
    assert "{'on': True, 'x': None}" in text and "call_1" in text
    broken = ToolCall(id="c", name="f", arguments='{"on": tru')
    assert '{"on": tru' in call_text(broken, "f")


def _with_minefield(scenario: Scenario, tool: str) -> Scenario:
    data = scenario.model_dump(by_alias=True, exclude_none=True)
    data["minefields"] = [
        {
            "id": "forbidden",
            "after": [],
            "constraints": [
                {
                    "kind": "message",
                    "sender": "assistant",
                    "recipient": "environment",
                    "content": {"contains": tool},
                }
            ],
        }
    ]
    return Scenario.model_validate(data)


@pytest.mark.parametrize("setting", ["none", "distractors_3+scrambled_names"])
def test_a_call_in_a_parallel_answer_trips_a_message_minefield(setting: str) -> None:
    """One assistant message with several calls: the reference sees one message per call."""
    name = "send_message_with_contact_content_cellular_off"
    wanted = name if setting == "none" else f"{name}@{setting}"
    base = next(s for s in SUITE.scenarios if s.id == wanted)
    scenario = _with_minefield(base, "search_contacts")
    solved = asyncio.run(play_dynamic(scenario, OracleAssistant(), ScriptedUser()))
    scored = score_milestones(scenario, solved)
    assert scored.score == 0.0 and scored.evidence.minefield_similarity > 0.0
    quiet = _with_minefield(base, "remove_contact")
    solved = asyncio.run(play_dynamic(quiet, OracleAssistant(), ScriptedUser()))
    assert score_milestones(quiet, solved).score == 1.0


def test_validate_reports_a_minefield_no_trajectory_can_trip(tmp_path: Path) -> None:
    scenario = {
        "id": "dead_minefield",
        "evaluation": "milestones",
        "world": {"domains": ["sandbox"], "clock": "2024-08-14T10:00:00+00:00"},
        "tools": {"allow": ["search_contacts"]},
        "user": {"script": ["Who is Homer?"]},
        "reference": [{"user": "Who is Homer?", "reply": "I don't know."}],
        "milestones": [{"constraints": [{"kind": "message", "content": "I don't know."}]}],
        "minefields": [
            {
                "id": "texted",
                "constraints": [
                    {"kind": "added", "table": "messages", "rows": [{"content": "hi"}]}
                ],
            },
            {
                "id": "two_places",
                "constraints": [
                    {"kind": "tool_call", "tool": "search_contacts"},
                    {"kind": "message", "content": "Homer"},
                ],
            },
            {"id": "searched", "constraints": [{"kind": "tool_call", "tool": "search_contacts"}]},
        ],
    }
    (tmp_path / "dead.yaml").write_text(yaml.safe_dump(scenario), encoding="utf-8")
    report = validate_suite(str(tmp_path), catalog=CATALOG)
    assert report.checked == 1
    text = json.dumps(report.failures)
    assert "minefield 'texted' cannot be tripped: no offered tool writes" in text
    assert "minefield 'two_places' cannot be tripped: its constraints look at" in text
    assert "'searched'" not in text
