"""`toolplay compare` on real runs: side-by-side numbers and agreement checked against scipy."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from typer.testing import CliRunner

from toolplay.analysis import ReportError, compare_runs, load_human_scores, ordered
from toolplay.cli import app
from toolplay.report._format import fmt

HUMAN = {
    "quick_add_contact": 0.9,
    "quick_send_with_cellular_off": 0.3,
    "quick_text_contact": 0.8,
    "quick_update_number": 0.6,
    "quick_wifi_on": 0.1,
}


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "220"})
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def partial_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("partial")
    plugin = str(Path(__file__).with_name("roles_plugin.py"))
    for name in ("no-messaging", "settings-only"):
        args = ["--plugin", plugin, "run", "--assistant", name, "--out", str(root / name)]
        code, output = cli(*args)
        assert code == 0, output
    return root / "no-messaging", root / "settings-only"


def stored_scores(run_dir: Path) -> dict[str, float]:
    """Per-scenario scores read straight from the trajectory files (not via the report code)."""
    scores = {}
    for path in (run_dir / "trajectories").glob("*.jsonl"):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record["type"] == "score":
                scores[record["scenario_id"]] = record["score"]
    return scores


def icc_by_hand(x: list[float], y: list[float]) -> float:
    data = np.array([x, y]).T
    n, k = data.shape
    grand = data.mean()
    ss_rows = k * ((data.mean(axis=1) - grand) ** 2).sum()
    ss_cols = n * ((data.mean(axis=0) - grand) ** 2).sum()
    ss_err = ((data - grand) ** 2).sum() - ss_rows - ss_cols
    ms_rows, ms_err = ss_rows / (n - 1), ss_err / ((n - 1) * (k - 1))
    return float((ms_rows - ms_err) / (ms_rows + (k - 1) * ms_err))


def write_human(path: Path) -> Path:
    lines = ["scenario_id,score"] + [f"{k},{v}" for k, v in HUMAN.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_compare_two_runs_and_human_scores(partial_runs: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = partial_runs
    human = write_human(tmp_path / "human.csv")
    out = tmp_path / "compare.html"
    code, output = cli("compare", str(a), str(b), "--human", str(human), "--out", str(out))
    assert code == 0, output
    sa, sb = stored_scores(a), stored_scores(b)
    assert len(set(sa.values())) > 1 and len(set(sb.values())) > 1  # real variation
    ids = sorted(sa)
    comparison = compare_runs([a, b], human)
    expected_pairs = [
        ("no-messaging", "settings-only", [sa[i] for i in ids], [sb[i] for i in ids]),
        ("no-messaging", "human", [sa[i] for i in ids], [HUMAN[i] for i in ids]),
        ("settings-only", "human", [sb[i] for i in ids], [HUMAN[i] for i in ids]),
    ]
    assert [(p.left, p.right) for p in comparison.pairs] == [e[:2] for e in expected_pairs]
    for pair, (_, _, x, y) in zip(comparison.pairs, expected_pairs, strict=True):
        assert pair.stats.n == 5
        assert pair.stats.pearson == pytest.approx(stats.pearsonr(x, y).statistic)
        assert pair.stats.spearman == pytest.approx(stats.spearmanr(x, y).statistic)
        assert pair.stats.icc_3_1 == pytest.approx(icc_by_hand(x, y))
        agreement_table = output.split("Agreement per scenario")[1]
        row = next(
            line
            for line in agreement_table.splitlines()
            if f" {pair.left} " in line and f" {pair.right} " in line
        )
        for value in (pair.stats.pearson, pair.stats.spearman, pair.stats.icc_3_1):
            assert fmt(value) in row
    # Side by side: each run's own headline number.
    side_by_side = output.split("Agreement per scenario")[0]
    for run in (a, b):
        metrics = json.loads((run / "summary.json").read_text())["metrics"]
        headline = ordered(list(metrics))[0]
        value = metrics[headline]
        row = next(line for line in side_by_side.splitlines() if f" {headline} " in line)
        assert fmt(value) in row
    # The HTML version: one scatter plot per pair, every scenario listed, ids in tooltips.
    html = out.read_text()
    svgs = [
        ET.fromstring(chunk[: chunk.index("</svg>") + 6])
        for chunk in ("<svg" + s for s in html.split("<svg")[1:])
    ]
    assert len(svgs) == 3
    assert sum(1 for c in svgs[1].iter("circle")) == 5  # human scores are all distinct
    assert "quick_wifi_on" in "".join(svgs[1].itertext())
    assert all(i in html for i in ids)
    assert "<script" not in html


def test_undefined_agreement_is_shown_as_a_dash(tmp_path: Path) -> None:
    # The oracle scores every scenario perfectly: no spread, so no correlation is defined.
    for name in ("first", "second"):
        assert cli("run", "--assistant", "oracle", "--out", str(tmp_path / name))[0] == 0
    code, output = cli("compare", str(tmp_path / "first"), str(tmp_path / "second"))
    assert code == 0, output
    agreement_table = output.split("Agreement per scenario")[1]
    row = next(line for line in agreement_table.splitlines() if " first " in line)
    assert row.split("│")[3:7] == [" 5 ", "       - ", "        - ", "        - "]


def test_human_csv_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("scenario_id,score\nquick_wifi_on,high\n")
    with pytest.raises(ReportError, match=r"bad\.csv: line 2: score 'high' is not a finite"):
        load_human_scores(bad)
    bad.write_text("a,1\na,0.5\n")
    with pytest.raises(ReportError, match="line 2: scenario 'a' appears twice"):
        load_human_scores(bad)
    bad.write_text("only-one-column\n")
    with pytest.raises(ReportError, match="line 1: expected"):
        load_human_scores(bad)
    good = tmp_path / "good.csv"
    good.write_text("# rater: A\nscore,scenario\n1,x\n\n0.25,y\n")
    assert load_human_scores(good) == {"x": 1.0, "y": 0.25}
    code, output = cli("compare", str(tmp_path))
    assert code == 2 and "two run directories" in output


def test_runs_sharing_no_scenario_warn_and_exit_1(tmp_path: Path) -> None:
    # The same suite under two augmentations: the ids differ (`id` vs `id@no_docs`).
    for name, setting in (("plain", "none"), ("nodocs", "no_docs")):
        args = ["run", "--augment", setting, "--out", str(tmp_path / name)]
        assert cli(*args)[0] == 0
    result = CliRunner().invoke(
        app, ["compare", str(tmp_path / "plain"), str(tmp_path / "nodocs")], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 1, result.output
    assert "warning: plain and nodocs share no scored scenario" in result.stderr


def test_icc_is_undefined_when_one_side_is_constant(tmp_path: Path) -> None:
    from toolplay.stats import agreement, system_agreement

    constant, varied = [1.0, 1.0, 1.0, 1.0], [0.2, 0.9, 0.4, 1.0]
    stats = agreement(constant, varied)
    assert stats.pearson is None and stats.icc_3_1 is None
    assert agreement(varied, constant).icc_3_1 is None
    a = {f"s{i}": v for i, v in enumerate(constant)}
    b = {f"s{i}": v for i, v in enumerate(varied)}
    assert system_agreement("x", a, "y", b).icc_3_1 is None
    assert agreement(varied, [v + 0.5 for v in varied]).icc_3_1 == pytest.approx(1.0)
    # and in the table: a run where the oracle solves all against human scores that vary
    assert cli("run", "--assistant", "oracle", "--out", str(tmp_path / "oracle"))[0] == 0
    code, output = cli(
        "compare", str(tmp_path / "oracle"), "--human", str(write_human(tmp_path / "h.csv"))
    )
    assert code == 0, output
    row = next(
        line for line in output.split("Agreement per scenario")[1].splitlines() if " human " in line
    )
    assert row.split("│")[4:7] == ["       - ", "        - ", "        - "]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("quick_wifi_on,1.5\n", "line 1: score 1.5 is outside the runs' 0-1 scale"),
        ("scenario_id,score\nquick_wifi_on,-0.1\n", "line 2: score -0.1 is outside"),
        ("quick_wifi_on,4\n", "line 1: score 4 is outside"),
        ("quick_wifi_on,0.5,extra\n", "line 1: 3 columns; expected 'scenario_id,score'"),
        ("quick_wifi_on,0.5\nquick_add_contact\n", "line 2: expected 'scenario_id,score'"),
    ],
)
def test_human_scores_off_the_scale_or_malformed_are_refused(
    tmp_path: Path, text: str, reason: str
) -> None:
    path = tmp_path / "human.csv"
    path.write_text(text)
    with pytest.raises(ReportError, match=rf"human\.csv: {reason}"):
        load_human_scores(path)
    assert load_human_scores(_header_with_extra_column(tmp_path)) == {"x": 0.5}


def _header_with_extra_column(tmp_path: Path) -> Path:
    path = tmp_path / "named.csv"
    path.write_text("scenario_id,rater,score\nx,ann,0.5\n")
    return path
