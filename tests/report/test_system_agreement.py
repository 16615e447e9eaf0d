"""System-level agreement (AutoDE's Table 2): one point per assistant, Pearson and ICC(3,1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy import stats
from typer.testing import CliRunner

from toolplay.analysis import ReportError, compare_runs
from toolplay.cli import app
from toolplay.stats import system_agreement

AUTODE = Path(__file__).resolve().parents[2] / ".." / "shared" / "autode"
PLUGIN = str(Path(__file__).with_name("slots_plugin.py"))


def test_pearson_and_icc_over_assistants_match_scipy_and_a_hand_computation() -> None:
    human = {"A": 0.2, "B": 0.5, "C": 0.9, "only-human": 0.4}
    dynamic = {"A": 0.3, "B": 0.55, "C": 1.0}
    result = system_agreement("human", "dynamic", human, dynamic)
    assert result.n == 3 and [p[0] for p in result.points] == ["A", "B", "C"]
    x, y = [0.2, 0.5, 0.9], [0.3, 0.55, 1.0]
    assert result.pearson == pytest.approx(stats.pearsonr(x, y).statistic)
    # Two-way ANOVA by hand: MS_rows = 0.4975 / 2, MS_error = (0.50875 - 0.4975 - 0.0104167) / 2
    ms_rows, ms_error = 0.4975 / 2, (0.50875 - 0.4975 - 0.03125 / 3) / 2
    assert result.icc_3_1 == pytest.approx((ms_rows - ms_error) / (ms_rows + ms_error))
    assert result.icc_3_1 == pytest.approx(0.996656, abs=1e-6)


def test_a_constant_offset_keeps_icc_consistency_at_one() -> None:
    result = system_agreement(
        "a", "b", {"p": 0.1, "q": 0.4, "r": 0.6}, {"p": 0.2, "q": 0.5, "r": 0.7}
    )
    assert result.icc_3_1 == pytest.approx(1.0) and result.pearson == pytest.approx(1.0)


def test_too_few_assistants_leave_the_statistics_undefined() -> None:
    result = system_agreement("a", "b", {"p": 0.1}, {"p": 0.3})
    assert result.pearson is None and result.icc_3_1 is None


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "220"})
    return result.exit_code, result.output


def test_compare_gives_system_level_agreement_beside_per_dialogue(tmp_path: Path) -> None:
    if not (AUTODE / "datasets" / "data_v1_2.jsonl").is_file():
        pytest.skip(f"AutoDE data not found at {AUTODE.resolve()} (../shared/autode)")
    suite = f"autode-data:{AUTODE.resolve()}"
    runs: dict[tuple[str, str], Path] = {}
    for assistant in ("oracle", "first-1", "first-2", "no-call"):
        for mode in ("static", "dynamic"):
            out = tmp_path / f"{mode}-{assistant}"
            code, output = cli(
                "--plugin",
                PLUGIN,
                "run",
                "--suite",
                suite,
                "--mode",
                mode,
                "--assistant",
                assistant,
                "--limit",
                "40",
                "--out",
                str(out),
            )
            assert code == 0, output
            runs[(mode, assistant)] = out
    f1 = {
        k: json.loads((p / "summary.json").read_text())["metrics"]["slot_f1"]
        for k, p in runs.items()
    }
    named = [f"{m}:{a}={p}" for (m, a), p in runs.items()]
    comparison = compare_runs([Path(n) for n in named])
    assert comparison.system_metric == "slot_f1" and len(comparison.systems) == 1
    system = comparison.systems[0]
    assert (system.left, system.right, system.n) == ("static", "dynamic", 4)
    order = sorted(a for _, a in runs if _ == "static")
    x = [f1[("static", a)] for a in order]
    y = [f1[("dynamic", a)] for a in order]
    assert system.pearson == pytest.approx(stats.pearsonr(x, y).statistic)
    # per dialogue, like with like: each assistant's static run against its dynamic run
    assert [(p.left, p.right) for p in comparison.pairs] == [
        (f"static:{a}", f"dynamic:{a}") for a in ("oracle", "first-1", "first-2", "no-call")
    ]
    assert comparison.pairing == "within_assistant"
    assert comparison.labels[:2] == ("static:oracle", "dynamic:oracle")
    unnamed = compare_runs(
        [
            runs[("static", "oracle")],
            runs[("dynamic", "oracle")],
            runs[("static", "no-call")],
            runs[("dynamic", "no-call")],
        ]
    )
    assert [s.n for s in unnamed.systems] == [2]  # mode and assistant spec name the points
    code, output = cli("compare", *named)
    assert code == 0, output
    assert "System-level agreement" in output and "Agreement per scenario" in output
    with pytest.raises(ReportError, match="static:oracle names two runs"):
        compare_runs([Path(named[0]), Path(named[0])])
    with pytest.raises(ReportError, match="METHOD:ASSISTANT=RUN_DIR"):
        compare_runs([Path(f"static={runs[('static', 'oracle')]}"), runs[("dynamic", "oracle")]])
