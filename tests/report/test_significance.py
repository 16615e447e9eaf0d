"""Intervals and paired comparisons as a user meets them: `run`, `report` and `compare`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolplay.analysis import compare_runs
from toolplay.cli import app
from toolplay.stats import UncertaintySettings

PLUGIN = str(Path(__file__).resolve().parents[1] / "runs" / "coin_plugin.py")


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.output


RUNS = {
    # name: (share solved, salt, trials, --limit)
    "strong": (0.85, "a", 2, 40),
    "weak": (0.3, "b", 1, 40),
    "weak-too": (0.35, "c", 1, 36),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("significance")
    for name, (share, salt, trials, limit) in RUNS.items():
        code, output = cli(
            "--plugin", PLUGIN, "run", "--suite", "sandbox", "--limit", str(limit),
            "--trials", str(trials), "--assistant", f"coin:{share}:{salt}",
            "--out", str(root / name),
        )  # fmt: skip
        assert code == 0, output
    return {name: root / name for name in RUNS}


def scenario_means(run: Path) -> dict[str, float]:
    """Per-scenario similarity averaged over trials, read straight from the summary's source."""
    sums: dict[str, list[float]] = {}
    for path in sorted((run / "trajectories").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record["type"] == "score" and record["score"] is not None:
                sums.setdefault(record["scenario_id"], []).append(record["score"])
    return {sid: sum(v) / len(v) for sid, v in sums.items()}


def test_run_prints_intervals_and_trial_power(runs: dict[str, Path]) -> None:
    code, output = cli("score", str(runs["strong"]))
    assert code == 0, output
    assert re.search(r"similarity\s+│\s+\d\.\d{3}\s+│\s+\d\.\d{3}–\d\.\d{3}", output), output
    assert "95% CI" in output and "How many trials are enough" in output
    assert "2,000 resamples, seed 0" in output
    code, output = cli("score", str(runs["weak"]), "--ci-level", "0.9")
    assert code == 0 and "90% CI" in output
    assert "How many trials are enough" not in output  # one trial: nothing to say


def test_report_has_the_uncertainty_panel(runs: dict[str, Path]) -> None:
    code, output = cli("report", str(runs["strong"]))
    assert code == 0, output
    page = (runs["strong"] / "report.html").read_text()
    assert 'id="uncertainty"' in page and 'id="trial-power"' in page
    assert 'id="trial-spread"' in page  # the scenarios whose trials disagreed
    assert "similarity 95% CI" in page  # the breakdown tables carry an interval column


def test_paired_difference_of_two_runs(runs: dict[str, Path]) -> None:
    comparison = compare_runs([runs["strong"], runs["weak-too"]])
    assert comparison.significance is not None
    pair = comparison.significance.pair
    assert pair is not None and comparison.significance.ranking is None
    a, b = scenario_means(runs["strong"]), scenario_means(runs["weak-too"])
    shared = sorted(set(a) & set(b))
    assert pair.shared == len(shared) == 36
    assert pair.only_left == tuple(sorted(set(a) - set(b))) and len(pair.only_left) == 4
    assert pair.only_right == ()
    similarity = next(d for d in pair.metrics if d.metric == "similarity")
    expected = sum(a[s] - b[s] for s in shared) / len(shared)
    assert similarity.difference == pytest.approx(expected)
    assert similarity.p_value is not None and similarity.p_value < 0.01
    assert similarity.low is not None and 0 < similarity.low < similarity.difference
    assert all(d.p_holm is not None and d.p_holm >= (d.p_value or 0) for d in pair.metrics)
    assert pair.category_metric == "similarity" and pair.categories
    for _, difference in pair.categories:
        assert difference.n <= 36 and difference.p_holm is not None


def test_the_same_run_twice_shows_no_difference(runs: dict[str, Path]) -> None:
    comparison = compare_runs([runs["weak"], runs["weak"]])
    assert comparison.significance is not None and comparison.significance.pair is not None
    for difference in comparison.significance.pair.metrics:
        assert difference.difference == 0.0 and difference.p_value == 1.0


def test_several_runs_are_ranked_only_where_it_is_significant(runs: dict[str, Path]) -> None:
    comparison = compare_runs(list(runs.values()), uncertainty=UncertaintySettings())
    assert comparison.significance is not None
    ranking = comparison.significance.ranking
    assert ranking is not None and ranking.metric == "similarity"
    assert ranking.scenarios == 36 and len(ranking.left_out) == 4
    assert len(ranking.pairs) == 3
    ranks = {run.label: run.rank for run in ranking.ranking}
    assert ranks == {"strong": 1, "weak": 2, "weak-too": 2}  # the two weak ones are not told apart
    weak_pair = next(d for a, b, d in ranking.pairs if {a, b} == {"weak", "weak-too"})
    assert weak_pair.p_holm is not None and weak_pair.p_holm >= 0.05


def test_compare_prints_and_writes_the_same_tables_every_time(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    args = ("compare", str(runs["strong"]), str(runs["weak-too"]))
    code, first = cli(*args, "--out", str(tmp_path / "one.html"))
    assert code == 0, first
    code, second = cli(*args, "--out", str(tmp_path / "two.html"))
    assert first.replace("one.html", "") == second.replace("two.html", "")
    assert (tmp_path / "one.html").read_bytes() == (tmp_path / "two.html").read_bytes()
    assert "Paired differences: a = strong, b = weak-too" in first
    assert "only in strong (4, not compared)" in first
    page = (tmp_path / "one.html").read_text()
    assert 'id="paired-metrics"' in page and 'id="paired-categories"' in page
    code, output = cli(
        "compare", *(str(p) for p in runs.values()), "--out", str(tmp_path / "3.html")
    )
    assert code == 0, output
    assert "rank = 1 + the number of runs significantly better" in output
    assert 'id="ranking-table"' in (tmp_path / "3.html").read_text()


@pytest.mark.parametrize(
    ("flag", "value"), [("--ci-level", "1.5"), ("--ci-resamples", "10"), ("--ci-seed", "-1")]
)
def test_bad_interval_settings_are_refused_naming_the_flag(
    runs: dict[str, Path], flag: str, value: str
) -> None:
    code, output = cli("compare", str(runs["strong"]), str(runs["weak"]), flag, value)
    assert code != 0
    assert flag in output and "Traceback" not in output
    assert len(output.strip().splitlines()) == 1, output


def test_run_refuses_a_bad_level_naming_the_flag(tmp_path: Path) -> None:
    code, output = cli("run", "--ci-level", "0", "--out", str(tmp_path / "r"))
    assert code != 0 and "--ci-level" in output
    assert not (tmp_path / "r").exists()


def test_run_refuses_a_bad_interval_option_naming_it(tmp_path: Path) -> None:
    code, output = cli("run", "--option", "ci_method=median", "--out", str(tmp_path / "r"))
    assert code != 0 and "--option ci_method" in output, output
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("command", ["run", "score", "compare"])
def test_interval_flags_are_described_by_the_settings_model(command: str) -> None:
    code, output = cli(command, "--help")
    assert code == 0
    text = " ".join(output.replace("│", " ").split())
    for field in ("level", "resamples", "seed"):
        description = UncertaintySettings.model_fields[field].description or ""
        assert description and description in text, (field, text)
