"""Static vs dynamic ToolTalk on the same data, end to end through the CLI.

Four runs of the 78 official conversations — the oracle and a deliberately imperfect Python
assistant (`dynamic_agents.imperfect`), each in static and in dynamic mode — then
`toolplay compare`, whose per-scenario pairing and printed agreement are checked against
scipy on pairs read straight from the run directories.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.stats import pearsonr, spearmanr
from typer.testing import CliRunner

from support import CATALOG
from toolplay.analysis import compare_runs
from toolplay.cli import app
from toolplay.roles._model_user import reference_user_prompt
from toolplay.scenarios import Suite
from toolplay.testing import (
    ChatServer,
    ReferenceResponder,
    is_user_request,
)

sys.path.insert(0, str(Path(__file__).parent))
from dynamic_agents import habit  # noqa: E402

runner = CliRunner()
AGENT = Path(__file__).with_name("dynamic_agents.py")
IMPERFECT = "imperfect"


def play(data: Path, out: Path, mode: str, assistant: str, *extra: str) -> Path:
    result = runner.invoke(
        app,
        ["--plugin", str(AGENT), "run", "--suite", f"tooltalk:{data}", "--mode", mode]
        + ["--assistant", assistant]
        + ["--out", str(out), *extra],
    )
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def runs(tooltalk_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("tooltalk-modes")
    return {
        f"{who}/{mode}": play(tooltalk_dir, root / who / mode, mode, assistant)
        for who, assistant in (("oracle", "oracle"), ("imperfect", IMPERFECT))
        for mode in ("static", "dynamic")
    }


def summary(run: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run / "summary.json").read_text())
    return data


def scores(run: Path) -> dict[str, dict[str, Any]]:
    """Each trajectory file's score record, by scenario id (read from the files, not the API)."""
    found = {}
    for path in sorted((run / "trajectories").glob("*.jsonl")):
        record = json.loads(path.read_text().splitlines()[-1])
        assert record["type"] == "score"
        found[record["scenario_id"]] = record
    return found


def structure(value: Any) -> Any:
    """The nested keys of a summary section (values dropped)."""
    return {k: structure(v) for k, v in value.items()} if isinstance(value, dict) else None


def test_oracle_scores_perfectly_in_both_modes(runs: dict[str, Path]) -> None:
    static, dynamic = summary(runs["oracle/static"]), summary(runs["oracle/dynamic"])
    assert (static["mode"], dynamic["mode"]) == ("static", "dynamic")
    assert dynamic["termination"] == {"script_exhausted": 78}  # none cut by the turn limit
    assert dynamic["sections"]["tooltalk"]["counts"] == static["sections"]["tooltalk"]["counts"]
    assert dynamic["sections"]["tooltalk"]["splits"] == static["sections"]["tooltalk"]["splits"]
    counts = dynamic["sections"]["tooltalk"]["counts"]
    assert counts["successes"] == 78 and counts["matches"] == 266


@pytest.mark.parametrize("who", ["oracle", "imperfect"])
def test_both_modes_report_the_same_quantities(runs: dict[str, Path], who: str) -> None:
    static, dynamic = summary(runs[f"{who}/static"]), summary(runs[f"{who}/dynamic"])
    assert structure(dynamic["metrics"]) == structure(static["metrics"])
    for key in ("counts", "error_types", "splits"):
        section = dynamic["sections"]["tooltalk"][key]
        assert structure(section) == structure(static["sections"]["tooltalk"][key])
    assert set(dynamic["sections"]["tooltalk"]["splits"]) == {"easy", "tooltalk"}
    for mode in ("static", "dynamic"):
        records = scores(runs[f"{who}/{mode}"])
        assert len(records) == 78
        # the per-scenario score is the conversation's success, in both modes
        assert all(r["score"] == float(r["evidence"]["success"]) for r in records.values())


def test_the_imperfect_assistant_is_judged_differently_off_and_on_policy(
    runs: dict[str, Path],
) -> None:
    static, dynamic = scores(runs["imperfect/static"]), scores(runs["imperfect/dynamic"])
    by_habit: dict[str, list[tuple[float, float]]] = {}
    for sid in static:
        by_habit.setdefault(habit(sid), []).append((static[sid]["score"], dynamic[sid]["score"]))
    assert set(by_habit) == {"oracle", "eager", "lazy", "fumble"}
    assert all(pair == (1.0, 1.0) for pair in by_habit["oracle"] + by_habit["fumble"])
    assert all(pair == (0.0, 0.0) for pair in by_habit["lazy"])
    # acting a turn early is harmless on-policy, but static replay makes the calls twice
    assert all(d == 1.0 for _, d in by_habit["eager"])
    assert any(s == 0.0 for s, _ in by_habit["eager"])
    for record in (static | dynamic).values():
        if habit(record["scenario_id"]) == "fumble":
            assert record["evidence"]["precision"] < 1.0


def agreement_row(output: str, left: str, right: str) -> list[str]:
    for line in output.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells[:2] == [left, right]:
            return cells[2:]
    raise AssertionError(f"no agreement row for {left} / {right} in:\n{output}")


def icc_3_1(a: np.ndarray, b: np.ndarray) -> float:
    """ICC(3,1) from the two-way ANOVA table (Shrout & Fleiss case 3, single rater)."""
    data = np.column_stack([a, b])
    n, k = data.shape
    grand = data.mean()
    ss_rows = k * ((data.mean(axis=1) - grand) ** 2).sum()
    ss_cols = n * ((data.mean(axis=0) - grand) ** 2).sum()
    ss_error = ((data - grand) ** 2).sum() - ss_rows - ss_cols
    ms_rows, ms_error = ss_rows / (n - 1), ss_error / ((n - 1) * (k - 1))
    return float((ms_rows - ms_error) / (ms_rows + (k - 1) * ms_error))


def test_compare_pairs_scenarios_and_prints_scipys_agreement(runs: dict[str, Path]) -> None:
    left, right = runs["imperfect/static"], runs["imperfect/dynamic"]
    result = runner.invoke(app, ["compare", str(left), str(right)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    static, dynamic = scores(left), scores(right)
    ids = sorted(static)
    assert ids == sorted(dynamic)
    a = np.array([static[s]["score"] for s in ids])
    b = np.array([dynamic[s]["score"] for s in ids])
    assert 0 < a.sum() < len(a) and 0 < b.sum() < len(b)  # both vary: the statistics exist
    pair = compare_runs([left, right]).pairs[0]
    assert pair.points == tuple(zip(ids, a.tolist(), b.tolist(), strict=True))
    assert (pair.only_left, pair.only_right) == (0, 0)

    n, pearson, spearman, icc = agreement_row(result.output, "static", "dynamic")
    assert n == "78"
    assert float(pearson) == pytest.approx(pearsonr(a, b).statistic, abs=5e-4)
    assert float(spearman) == pytest.approx(spearmanr(a, b).statistic, abs=5e-4)
    assert float(icc) == pytest.approx(icc_3_1(a, b), abs=5e-4)
    assert pair.stats.pearson == pytest.approx(pearsonr(a, b).statistic, abs=1e-12)
    assert pair.stats.icc_3_1 is not None and float(pair.stats.icc_3_1) < 1.0


def test_compare_of_two_perfect_runs_has_no_correlation(runs: dict[str, Path]) -> None:
    result = runner.invoke(
        app,
        ["compare", str(runs["oracle/static"]), str(runs["oracle/dynamic"])],
        env={"COLUMNS": "160"},
    )
    assert result.exit_code == 0, result.output
    # every scenario scores 1 on both sides: correlation is undefined, not 1 or 0
    assert agreement_row(result.output, "static", "dynamic") == ["78", "-", "-", "-"]


def test_model_driven_user_over_an_endpoint_gets_the_derived_side(
    tooltalk_dir: Path, tooltalk_suite: Suite, tmp_path: Path
) -> None:
    """Assistant and user both behind a real OpenAI-compatible server on 127.0.0.1, which plays
    the reference (assistant) and the recorded utterances (user, then `end_conversation`).
    Every user-simulator request carries its conversation's goal and knowledge boundary."""
    with ChatServer(ReferenceResponder(tooltalk_suite.scenarios)) as server:
        out = play(
            tooltalk_dir,
            tmp_path / "endpoint-user",
            "dynamic",
            "openai:assistant-model",
            "--user",
            "openai:user-model",
            "--base-url",
            server.base_url,
            "--limit",
            "12",
            "--concurrency",
            "4",
        )
        requests = [r.body for r in server.requests]
    data = summary(out)
    assert data["termination"] == {"user_ended": 12}
    assert data["metrics"]["success_rate"] == 1.0
    prompts = {
        m["content"]
        for r in requests
        if is_user_request(r)
        for m in r["messages"]
        if m["role"] == "system"
    }
    by_id = {s.id: s for s in tooltalk_suite.scenarios}
    played = [by_id[sid] for sid in scores(out)]
    assert len(played) == 12
    for scenario in played:
        expected = reference_user_prompt(scenario, CATALOG.presentation("toolplay").prompt_texts)
        assert expected in prompts, scenario.id
        assert (scenario.user.goal or "-") in expected
        assert (scenario.user.knowledge or "-") in expected


@pytest.mark.slow
def test_the_local_model_plays_the_user(tooltalk_dir: Path, tmp_path: Path) -> None:
    """The packaged local model as the user (about 20 s: opt-in): it opens with the recorded
    first utterance, then speaks from the derived goal; the run is scored like any other."""
    out = play(
        tooltalk_dir,
        tmp_path / "model-user",
        "dynamic",
        "oracle",
        "--user",
        "local",
        "--limit",
        "1",
        "--option",
        "user_max_tokens=24",
    )
    data = summary(out)
    assert data["user"] == "local" and data["completed"] == 1 and data["errors"] == 0
    lines = (out / "trajectories" / "easy.AddAlarm-easy.t0.jsonl").read_text().splitlines()
    messages = [json.loads(line) for line in lines if json.loads(line)["type"] == "message"]
    said = [m["content"] for m in messages if m["sender"] == "user" and m["content"]]
    assert said[0] == "Hey I have class tonight at 7. Can you set an alarm for 6:30?"
    assert len(said) > 1  # the model spoke after the scripted opening
    assert json.loads(lines[0])["termination"] in ("user_ended", "turn_limit")
    assert json.loads(lines[-1])["details"]["counts"]["ground_truth"] == 1
