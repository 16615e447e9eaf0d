"""Issue 24 item 6: the report's and compare's small print reads right.

Chart texts are never clipped, counts agree in number ("1 scenario"), one trial shows no
`± -`, the report sets the run between its floor and ceiling (`toolplay baselines` keeps
them in the run folder), and `compare` counts scenarios and scenario trials apart, once.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolplay.analysis import compare_runs
from toolplay.cli import app
from toolplay.report._charts import CHAR_WIDTH, Bar, bar_chart
from toolplay.report._format import fmt, plural
from toolplay.runs import BASELINES_FILE, load_baselines
from toolplay.scoring import TrialSpread


def invoke(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == code, result.output
    return result.output


def test_the_text_after_a_bar_always_fits_the_chart() -> None:
    bars = [Bar("easy", 0.5, "0.500   28 conversations"), Bar("tooltalk", 0.25, "0.250")]
    root = ET.fromstring(str(bar_chart(bars, maximum=1.0)))
    width = float(root.get("width") or 0)
    for node in root.iter("text"):
        if node.get("class") == "chart-value":
            end = float(node.get("x") or 0) + len(node.text or "") * CHAR_WIDTH
            assert end <= width, (node.text, end, width)


def test_counts_agree_in_number_and_one_trial_has_no_spread() -> None:
    assert plural(1, "scenario") == "1 scenario"
    assert plural(1104, "scenario") == "1,104 scenarios"
    assert fmt(TrialSpread(mean=0.557, std=None)) == "0.557 (1 trial)"
    assert fmt(TrialSpread(mean=0.566, std=0.023)) == "0.566 ± 0.023"


@pytest.fixture(scope="module")
def one_trial_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("details") / "run"
    invoke("run", "--suite", "quick", "--assistant", "no-call", "--out", str(out))
    return out


def test_the_report_shows_floor_and_ceiling_once_baselines_kept_them(one_trial_run: Path) -> None:
    invoke("report", str(one_trial_run))
    page = (one_trial_run / "report.html").read_text()
    assert "Floor and ceiling" in page and f"toolplay baselines {one_trial_run}" in page
    assert "± -" not in page and not re.search(r"\b1 scenarios\b", page)
    assert "score over trials:" not in page  # one trial: nothing spreads
    printed = invoke("baselines", str(one_trial_run))
    kept = load_baselines(one_trial_run)
    assert kept is not None and (one_trial_run / BASELINES_FILE).is_file()
    assert kept.ceiling.metrics.get("similarity") == 1.0
    assert kept.floor.metrics.get("similarity") == 0.0
    invoke("report", str(one_trial_run))
    page = (one_trial_run / "report.html").read_text()
    section = page[
        page.index('id="baselines"') : page.index("</section>", page.index('id="baselines"'))
    ]
    assert "floor (no-call)" in section and "ceiling (oracle)" in section
    assert '<td>similarity</td><td class="num">0.000</td><td class="num">0.000</td>' in section
    assert "covers 0% of the way" in section and "covers 0% of the way" in printed


def test_compare_counts_scenarios_and_trials_once(one_trial_run: Path, tmp_path: Path) -> None:
    three = tmp_path / "three"
    invoke("run", "--suite", "quick", "--assistant", "oracle", "--trials", "3", "--out", str(three))
    rows = dict(compare_runs([three, one_trial_run]).metric_rows)
    assert rows["trials"] == (3, 1)  # typed values (the report formats them)
    assert rows["scenarios"] == (5, 5)  # distinct scenarios
    assert rows["scenario trials"] == (15, 5)
    assert "infrastructure errors" in rows
    output = invoke("compare", str(three), str(one_trial_run))
    assert len(re.findall(r"^│ trials ", output, re.M)) == 1
