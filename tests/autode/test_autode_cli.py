"""The `autode` suite end to end through the CLI: validation in both modes, the oracle and the
no-call floor, a model-driven user on a 127.0.0.1 endpoint, trials, and static-vs-dynamic
agreement from `toolplay compare`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from support import load_suite
from toolplay.analysis import compare_runs
from toolplay.cli import app
from toolplay.testing import (
    ChatServer,
    ReferenceResponder,
)

SUITE = load_suite("autode").scenarios
ENV = {"COLUMNS": "200"}


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env=ENV)
    return result.exit_code, result.output


def run(out: Path, *args: str) -> dict[str, Any]:
    code, output = cli("run", "--suite", "autode", "--out", str(out), *args)
    assert code == 0, output
    return json.loads((out / "summary.json").read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize("mode", [[], ["--mode", "static"], ["--mode", "dynamic"]])
def test_validate_passes_in_both_modes(mode: list[str]) -> None:
    code, output = cli("validate", "--suite", "autode", *mode)
    assert code == 0, output
    assert f"ok: {len(SUITE)} scenario(s) in suite 'autode' passed validation" in output


def test_the_oracle_scores_one_in_static_mode(tmp_path: Path) -> None:
    summary = run(tmp_path / "static", "--mode", "static")
    assert summary["mode"] == "autode-static" and summary["completed"] == len(SUITE)
    metrics = summary["metrics"]
    assert (metrics["slot_precision"], metrics["slot_recall"], metrics["slot_f1"]) == (1, 1, 1)
    assert sum(summary["sections"]["slots"]["failures"].values()) == 0
    assert summary["termination"] == {"completed": len(SUITE)}


@pytest.mark.parametrize("mode", ["static", "dynamic"])
def test_the_no_call_assistant_scores_zero_never_called(tmp_path: Path, mode: str) -> None:
    summary = run(tmp_path / mode, "--mode", mode, "--assistant", "no-call")
    metrics = summary["metrics"]
    assert metrics["slot_f1"] == 0.0 and metrics["slot_recall"] == 0.0
    assert summary["sections"]["slots"]["failures"]["never_called"] == len(SUITE)
    assert all(v["slot_f1"] == 0.0 for v in summary["by_category"].values())


def test_a_model_driven_user_answers_from_the_script(tmp_path: Path) -> None:
    with ChatServer(ReferenceResponder(SUITE)) as server:
        summary = run(
            tmp_path / "run",
            "--user",
            "openai:user-model",
            "--assistant",
            "openai:ref",
            "--base-url",
            server.base_url,
            "--limit",
            "60",
        )
        prompts = [  # the briefing: the last system message (demonstrations come first)
            [m["content"] for m in r.body["messages"] if m["role"] == "system"][-1]
            for r in server.requests
            if r.body["model"] == "user-model"
        ]
    assert summary["user"] == "openai:user-model" and summary["errors"] == 0
    assert summary["metrics"]["slot_f1"] == 1.0
    assert summary["termination"] == {"user_ended": 60}
    assert all("Play this person:" in p for p in prompts)
    assert any("You do not know: the contact's internal id in the app." in p for p in prompts)
    lines = tmp_path / "run" / "trajectories" / "autode_add_contact_conference.t0.jsonl"
    records = [json.loads(line) for line in lines.read_text().splitlines()]
    said = [r["content"] for r in records if r.get("sender") == "user" and r.get("content")]
    assert said == [
        "I met someone at the conference and want to save her number.",
        "Adaeze Okafor.",
        "+13105550128.",
    ]


def test_trials_give_the_spread_over_trials(tmp_path: Path) -> None:
    summary = run(tmp_path / "trials", "--trials", "2", "--limit", "10")
    spread = summary["sections"]["slots"]["over_trials"]["slot_f1"]
    assert spread == {"mean": 1.0, "std": 0.0} and summary["metrics"]["dialogues"] == 20


AGENT = '''
import json

LABELS = json.loads(%r)

def agent(messages, tools, context):
    """Calls the label's function with only its first slot, then answers.

    An assistant under test never sees the label: this one was written knowing them.
    """
    if messages[-1]["role"] == "tool":
        return "Done."
    name, arguments = LABELS[context.scenario_id]
    slots = dict(list(arguments.items())[:1])
    call = {"id": "x", "function": {"name": name, "arguments": json.dumps(slots)}}
    return {"content": None, "tool_calls": [call]}
'''


def test_static_and_dynamic_scores_pair_up_in_compare(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    labels = {s.id: (s.metadata["label"]["name"], s.metadata["label"]["arguments"]) for s in SUITE}
    agent.write_text(AGENT % json.dumps(labels))
    spec = f"python:{agent}:agent"
    static = run(tmp_path / "static", "--mode", "static", "--assistant", spec, "--limit", "40")
    dynamic = run(tmp_path / "dynamic", "--assistant", spec, "--limit", "40")
    assert 0.0 < static["metrics"]["slot_f1"] < 1.0
    assert static["metrics"]["slot_f1"] == pytest.approx(dynamic["metrics"]["slot_f1"])
    code, output = cli("compare", str(tmp_path / "static"), str(tmp_path / "dynamic"))
    assert code == 0 and "ICC(3,1)" in output, output
    (pair,) = compare_runs([tmp_path / "static", tmp_path / "dynamic"]).pairs
    assert pair.stats.n == 40 and len({left for _, left, _ in pair.points}) > 1
    assert all(left == right for _, left, right in pair.points)  # the slot F1 of each dialogue
    assert pair.stats.pearson == pytest.approx(1.0)
    assert pair.stats.spearman == pytest.approx(1.0)
    assert pair.stats.icc_3_1 == pytest.approx(1.0)
