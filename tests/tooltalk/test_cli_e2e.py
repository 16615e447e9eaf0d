"""End to end through the CLI: oracle run, re-scoring, validation, replay with a call cap."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from toolplay.cli import app

runner = CliRunner()
SPLIT_COUNTS = {
    "easy": {"conversations": 28, "ground_truth": 28},
    "tooltalk": {"conversations": 50, "ground_truth": 238},
}


def test_oracle_run_summary_then_rescore(tooltalk_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.invoke(
        app,
        ["run", "--suite", f"tooltalk:{tooltalk_dir}", "--assistant", "oracle", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["mode"] == "static"
    assert summary["embedding_model"].startswith("sentence-transformers/all-MiniLM-L6-v2")
    assert (summary["scenarios"], summary["completed"], summary["errors"]) == (78, 78, 0)
    assert summary["termination"] == {"completed": 78}
    for split, expected in SPLIT_COUNTS.items():
        part = summary["sections"]["tooltalk"]["splits"][split]
        n, calls = expected["conversations"], expected["ground_truth"]
        assert part["counts"]["conversations"] == n
        assert part["counts"]["ground_truth"] == calls
        assert part["counts"]["predictions"] == part["counts"]["matches"] == calls
        assert part["counts"]["successes"] == n
        assert part["counts"]["incorrect_actions"] == 0
        assert part["metrics"] == {
            "precision": 1.0,
            "recall": 1.0,
            "incorrect_action_rate": 0.0,
            "success_rate": 1.0,
            "soft_success_rate": 1.0,
        }
    assert summary["metrics"] == summary["sections"]["tooltalk"]["splits"]["easy"]["metrics"]
    assert summary["sections"]["tooltalk"]["counts"]["ground_truth"] == 266
    assert summary["sections"]["tooltalk"]["counts"]["actions"] == 173
    assert sum(summary["sections"]["tooltalk"]["error_types"].values()) == 0
    trajectory = (out / "trajectories" / "easy.AddAlarm-easy.t0.jsonl").read_text().splitlines()
    score = json.loads(trajectory[-1])
    assert score["type"] == "score" and score["evidence"]["success"] is True

    before = (out / "summary.json").read_bytes()
    rescored = runner.invoke(app, ["score", str(out)])
    assert rescored.exit_code == 0, rescored.output
    assert (out / "summary.json").read_bytes() == before


def test_validate_passes_on_the_official_data(tooltalk_dir: Path) -> None:
    result = runner.invoke(app, ["validate", "--suite", f"tooltalk:{tooltalk_dir}"])
    assert result.exit_code == 0, result.output
    assert "ok: 78 scenario(s)" in result.output


def test_replay_with_call_cap_and_no_docs(tooltalk_dir: Path, tmp_path: Path) -> None:
    """Saved ground truth replayed with one call per turn: the two-call turn is cut."""
    name = "AccountTools-Alarm-Messages-FindAlarm-0.json"
    data, saved = tmp_path / "data", tmp_path / "saved"
    (data / "tooltalk").mkdir(parents=True)
    (data / "databases").symlink_to(tooltalk_dir / "databases")
    shutil.copy(tooltalk_dir / "tooltalk" / name, data / "tooltalk" / name)
    raw = json.loads((tooltalk_dir / "tooltalk" / name).read_text())
    for turn in raw["conversation"]:
        if turn["role"] == "assistant":
            calls = [
                {"role": "api", "request": a["request"], "response": a["response"]}
                for a in turn.get("apis", [])
            ]
            turn["predictions"] = [*calls, {"role": "assistant", "text": turn["text"]}]
    (saved / "tooltalk").mkdir(parents=True)
    (saved / "tooltalk" / name).write_text(json.dumps(raw))
    out = tmp_path / "run"
    args = [
        "run",
        "--suite",
        f"tooltalk:{data}",
        "--assistant",
        f"replay:{saved}",
        "--out",
        str(out),
        "--augment",
        "no_docs",
        "--max-calls-per-turn",
        "1",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["termination"] == {"call_limit": 1}
    # turn 1 keeps UserLogin but loses AddAlarm; turn 3 keeps one of four deletions
    assert summary["sections"]["tooltalk"]["counts"]["predictions"] == 3
    assert summary["sections"]["tooltalk"]["counts"]["matches"] == 3
    assert summary["sections"]["tooltalk"]["counts"]["ground_truth"] == 7
    config = json.loads((out / "config.json").read_text())
    assert config["play"] == {
        "system_prompt": None,
        "user_prompt": None,
        "max_calls_per_turn": 1,
        "max_rounds": None,
        "stop_marker": None,
        "submit_text": None,
        "prompt_context": False,
        "user_simulator": "toolsandbox",
    }
    assert config["augment"] == ["no_docs"]
