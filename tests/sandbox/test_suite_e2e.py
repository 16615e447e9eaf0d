"""The built-in sandbox suite end to end: validation, a flawed assistant, exact re-scoring."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from typer.testing import CliRunner

from support import load_suite, parse_scenario
from toolplay import scenarios as scenarios_package
from toolplay.cli import app
from toolplay.validate import validate_suite

SCENARIOS_DOC = Path(__file__).parents[2] / "docs" / "scenarios.md"
BASES = str(Path(scenarios_package.__file__).parent / "data" / "sandbox")
"""The hand-written base scenarios (the built-in `sandbox` suite adds generated variants)."""
MINE = [
    "messaging.yaml",
    "contacts_settings.yaml",
    "reminders.yaml",
    "lookups.yaml",
    "utilities.yaml",
    "insufficient.yaml",
]
"""The first 26 base scenarios (a fixed set, so the expected score range stays put)."""

FLAWED_PLUGIN = """
from toolplay.roles import AssistantContext, AssistantTurn, RoleKind
from toolplay.roles._python import to_turn


class Flawed:
    \"\"\"Plays the reference but skips each turn's last call and paraphrases its replies.\"\"\"

    name = "flawed"
    sees_reference = True

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        turn, step = -1, 0
        for m in context.messages:
            if m.sender == "user" and m.content is not None:
                turn, step = turn + 1, 0
            elif m.sender == "assistant":
                step += 1
        reference = context.reference.scenario.reference
        if not 0 <= turn < len(reference):
            return AssistantTurn(content="Anything else?")
        calls = reference[turn].calls[:-1] if len(reference[turn].calls) > 1 else []
        if step < len(calls):
            call = calls[step]
            return to_turn({"content": None, "tool_calls": [{"id": f"f{turn}_{step}", "function": {
                "name": call.name, "arguments": call.arguments}}]})
        return AssistantTurn(content="All set, " + (reference[turn].reply or "done").lower())


def register(catalog):
    catalog.add_assistant(RoleKind("flawed", lambda request: Flawed()))
"""


def test_a_selection_of_a_suite_validates_as_the_suite_plays_it() -> None:
    """What the benchmark scripts validate: some scenarios, in the suite's own way."""
    chosen = load_suite(BASES).scenarios[:3]
    report = validate_suite(BASES, scenarios=chosen)
    assert report.checked == 3 and report.failures == []
    broken = chosen[0].model_copy(update={"reference": chosen[0].reference[:0]})
    assert validate_suite(BASES, scenarios=[broken]).failures  # no solution: the oracle fails


def test_sandbox_suite_validates_and_covers_every_constraint_kind() -> None:
    report = validate_suite(BASES)
    assert report.failures == []
    suite = load_suite(BASES)
    assert len(suite) >= 20
    kinds = {
        c.kind for s in suite.scenarios for m in s.milestones + s.minefields for c in m.constraints
    }
    assert kinds == {
        "state",
        "added",
        "removed",
        "updated",
        "guardrail",
        "tool_call",
        "message",
        "flow",
    }
    categories = {c for s in suite.scenarios for c in s.categories}
    assert {
        "single_tool_call",
        "multiple_tool_call",
        "single_user_turn",
        "multiple_user_turn",
        "state_dependency",
        "canonicalization",
        "insufficient_information",
    } <= categories
    assert all(s.evaluation == "milestones" for s in suite.scenarios)


def test_flawed_assistant_gets_partial_credit_and_rescoring_is_exact(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    for name in MINE:
        (suite / name).write_text((Path(BASES) / name).read_text(encoding="utf-8"), "utf-8")
    plugin = tmp_path / "flawed.py"
    plugin.write_text(FLAWED_PLUGIN, encoding="utf-8")
    out = tmp_path / "run"
    runner = CliRunner()
    args = ["--plugin", str(plugin), "run", "--suite", str(suite), "--assistant", "flawed"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    before = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    lines_before = {p.name: p.read_text() for p in (out / "trajectories").iterdir()}
    metrics = before["metrics"]
    assert 0.2 < metrics["similarity"] < 0.95
    assert metrics["perfect_rate"] < 1.0 and metrics["turn_count"] > 2
    assert set(before["by_category"]["state_dependency"]) >= {
        "similarity",
        "milestone_similarity",
        "perfect_rate",
        "turn_count",
    }
    result = runner.invoke(app, ["--plugin", str(plugin), "score", str(out)])
    assert result.exit_code == 0, result.output
    after = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert after["metrics"] == before["metrics"]
    assert after["by_category"] == before["by_category"]
    assert {p.name: p.read_text() for p in (out / "trajectories").iterdir()} == lines_before


def test_the_documented_example_is_a_valid_scenario_the_oracle_passes(tmp_path: Path) -> None:
    text = SCENARIOS_DOC.read_text(encoding="utf-8")
    section = text[text.index("## Milestone scenario format") :]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block is not None
    data = yaml.safe_load(block.group(1))
    parse_scenario(data["scenarios"][0], "docs/scenarios.md")
    path = tmp_path / "example.yaml"
    path.write_text(block.group(1), encoding="utf-8")
    assert validate_suite(str(path)).failures == []
