"""The built-in `toolsandbox` suite: the reference's own scenarios, exported with its licence.

The suite loads (all 129 bases x the paper's 8 settings: the paper's 1,032 scenarios), says
what it left out and why (nothing now), keeps
Apple's licence and the provenance beside the data, and a sample validates (oracle 1.0, no
minefield). The exporter itself needs the reference package in its own Python 3.9 venv: when
one is there (`TOOLPLAY_TOOLSANDBOX_PYTHON`, default /work/ext/tsvenv/bin/python), re-running
it must reproduce the shipped files byte for byte.
"""

from __future__ import annotations

import ast
import asyncio
import json
import os
import subprocess
from pathlib import Path

import pytest

from support import load_suite, play_dynamic, score_milestones
from toolplay.methods.toolsandbox._suite import FOLDER, prompts
from toolplay.roles import OracleAssistant, ScriptedUser, SilentAssistant
from toolplay.scenarios import AUGMENTATION_SETTINGS

REPO = Path(__file__).resolve().parents[2]
EXPORTER = REPO / "scripts" / "toolsandbox_export"
REFERENCE_PYTHON = Path(
    os.environ.get("TOOLPLAY_TOOLSANDBOX_PYTHON", "/work/ext/tsvenv/bin/python")
)
DATA_FILES = (
    "scenarios.json",
    "left_out.json",
    "prompts.json",
    "evaluation.json",
    "rapidapi.json",
    "PROVENANCE.json",
    "presentation/tool_functions.json",
    "presentation/scenario_tools.json",
    "presentation/errors.json",
    "presentation/PROVENANCE.json",
)


@pytest.fixture(scope="module")
def suite():  # type: ignore[no-untyped-def]
    return load_suite("toolsandbox")


def test_every_base_under_the_eight_settings(suite) -> None:  # type: ignore[no-untyped-def]
    bases = [s for s in suite.scenarios if s.augmentation is None]
    assert len(bases) == suite.extra["bases"] == 129
    assert len(suite) == 8 * len(bases) == 1032
    for setting in AUGMENTATION_SETTINGS[1:]:
        ids = [s.id for s in suite.scenarios if s.augmentation == setting]
        assert ids == [f"{b.id}@{setting}" for b in bases]
    for base in bases:
        assert base.metadata["toolsandbox"]["commit"] == "165848b"
        assert base.tools.distractors  # the reference's ranking of distraction tools
        assert base.user.demonstrations  # the reference's default demonstration at least
        assert base.reference and base.user.script[0] == base.reference[0].user


def test_nothing_is_left_out_and_the_rapidapi_bases_are_in(suite) -> None:  # type: ignore[no-untyped-def]
    assert suite.extra["left_out"] == []
    online = {
        "search_location_around_lat_lon",
        "search_lat_lon",
        "search_weather_around_lat_lon",
        "search_stock",
        "convert_currency",
    }
    bases = [s for s in suite.scenarios if s.augmentation is None]
    using = [b for b in bases if online & set(b.tools.allow or [])]
    assert len(using) >= 38  # the 38 bases once left out for needing RapidAPI


def test_a_reference_defect_is_fixed_and_recorded(suite) -> None:  # type: ignore[no-untyped-def]
    name = "find_temperature_f_with_location_and_time_diff_low_battery_mode_multiple_user_turn"
    base = next(s for s in suite.scenarios if s.id == name)
    assert "unit_conversion" in (base.tools.allow or [])
    assert base.metadata["toolsandbox"]["fixed"]
    provenance = json.loads((FOLDER / "PROVENANCE.json").read_text(encoding="utf-8"))
    assert any("unit_conversion" in note for note in provenance["inexact"][name])


def test_licence_and_provenance_sit_beside_the_data() -> None:
    licence = (FOLDER / "LICENSE").read_text(encoding="utf-8")
    assert "Apple Inc." in licence and "redistribute" in licence
    provenance = json.loads((FOLDER / "PROVENANCE.json").read_text(encoding="utf-8"))
    assert provenance["commit"] == "165848b"
    assert provenance["pinned_clock"] == "2024-08-14T10:00:00+00:00"
    assert provenance["exported"] == 129 and provenance["left_out"] == 0
    assert provenance["format"] == "multi"


def test_prompts_are_the_reference_data() -> None:
    texts = prompts()
    assert texts["agent_system_prompt"].startswith("Don't make assumptions")
    assert "end_conversation" in texts["user_instruction"]
    default = texts["demonstrations"]["default"]
    assert default[0]["messages"][-1] == {
        "role": "user",
        "content": "end_conversation()",
        "recipient": "environment",
    }


SAMPLE = [
    "send_message_with_contact_content_cellular_off",
    "update_contact_relationship_with_relationship_twice_multiple_user_turn",
    "search_reminder_with_recency_upcoming",
    "remove_contact_by_phone_no_remove_contact_insufficient_information",
    "add_reminder_content_and_week_delta_and_time",
    "find_days_till_holiday_wifi_off",  # several references; the timestamp flows on
    "find_temperature_f_with_location_and_time_diff_wifi_off_multiple_user_turn",  # RapidAPI
    "add_reminder_content_and_week_delta_and_time_and_location_multiple_user_turn_alt",
    "find_current_city_low_battery_mode",
]


@pytest.mark.parametrize("setting", ["none", "distractors_3+scrambled_names"])
@pytest.mark.parametrize("name", SAMPLE)
def test_a_sample_validates_and_the_silent_assistant_fails(  # type: ignore[no-untyped-def]
    suite, name: str, setting: str
) -> None:
    wanted = name if setting == "none" else f"{name}@{setting}"
    scenario = next(s for s in suite.scenarios if s.id == wanted)
    played = asyncio.run(play_dynamic(scenario, OracleAssistant(), ScriptedUser()))
    scored = score_milestones(scenario, played)
    assert scored.score == 1.0
    silent = asyncio.run(play_dynamic(scenario, SilentAssistant(), ScriptedUser()))
    assert score_milestones(scenario, silent).score < 1.0


def test_the_exporter_reproduces_the_shipped_files(tmp_path: Path) -> None:
    if not REFERENCE_PYTHON.exists():
        pytest.skip(
            f"no reference venv at {REFERENCE_PYTHON} (set TOOLPLAY_TOOLSANDBOX_PYTHON to a "
            "Python 3.9 with apple/ToolSandbox installed)"
        )
    form = json.loads((FOLDER / "PROVENANCE.json").read_text(encoding="utf-8"))["format"]
    probes = tmp_path / "tool_probes.json"
    subprocess.run(
        [str(REFERENCE_PYTHON), str(EXPORTER), str(tmp_path), "--format", form, "--probes", probes],
        check=True,
        capture_output=True,
        timeout=600,
    )
    for name in DATA_FILES:
        assert (tmp_path / name).read_bytes() == (FOLDER / name).read_bytes(), name
    shipped = REPO / "tests" / "toolsandbox" / "data" / "tool_probes.json"
    assert probes.read_bytes() == shipped.read_bytes()


def test_the_exporter_imports_nothing_of_toolplay() -> None:
    """It runs under the reference's Python 3.9, where toolplay (3.11) cannot be imported."""
    for path in EXPORTER.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), feature_version=(3, 9))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] == "toolplay" for n in names), path
