"""Report sections appear when the summary has them and are skipped cleanly when it has not."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toolplay.analysis import load_run
from toolplay.cli import app
from toolplay.report import build_report
from toolplay.report._payload import unpack_payload


def payload(html: str) -> dict[str, Any]:
    match = re.search(r'id="run-data">(.*?)</script>', html, re.S)
    assert match is not None
    return unpack_payload(json.loads(match.group(1)))


@pytest.mark.parametrize("version", [1, 2])
def test_optional_summary_sections_are_shown(
    runs: dict[str, Path], tmp_path: Path, version: int
) -> None:
    """The methods' own parts as summary.json holds them now (each in its method's section)
    and as version 1 held them (at the top level and inside `metrics`): the same report."""
    copy = tmp_path / "run"
    shutil.copytree(runs["oracle"], copy)
    summary = json.loads((copy / "summary.json").read_text())
    splits = {
        "easy": {
            "counts": {"conversations": 3},
            "metrics": {"success_rate": 0.667},
            "error_types": {},
        },
        "hard": {
            "counts": {"conversations": 2},
            "metrics": {"success_rate": 0.25},
            "error_types": {},
        },
    }
    over_trials = {"score": {"mean": 0.8, "std": 0.55}}
    if version == 1:
        summary["summary_version"] = 1
        summary["splits"] = splits
        summary["metrics"]["over_trials"] = over_trials
    else:
        summary["sections"] = {
            "tooltalk": {"splits": splits},
            "slots": {"failures": {}, "failure_reasons": {}, "over_trials": over_trials},
        }
    summary["by_augmentation"] = {"no_docs": {"scenarios": 5, "similarity": 0.4375}}
    summary["by_domain"] = {"contacts": {"scenarios": 2, "trials": 6, "similarity": 0.3125}}
    summary["usage"] = {"prompt_tokens": 123456, "completion_tokens": 789, "calls": 42}
    summary["trials"] = {
        "k": 3,
        "pass_hat_k": {"1": 0.9, "2": 0.7, "3": 0.625},
        "scenarios_with_k": {"1": 5, "2": 5, "3": 4},
        "score_per_trial": {"0": 0.8, "1": 0.75, "2": 0.85},
        "score_mean": 0.8,
        "score_std": 0.05,
    }
    (copy / "summary.json").write_text(json.dumps(summary))
    html = build_report(load_run(copy))
    for expected in (
        "Score by split",
        "By split",
        "0.667",
        "0.250",
        "Score by augmentation",
        "By augmentation",
        "no_docs",
        "0.438",
        "over_trials.score",
        "0.800 ± 0.550",
        "By domain",
        "0.312",
        "124,245",
        "42 model calls",
        "Trials: pass^k",
        "pass^3",
        "0.625",
        "0.800 ± 0.050",
        "scenario trials",
    ):
        assert expected in html, expected
    assert payload(html)["trials"] == 3


def test_missing_summary_and_several_trials(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", "--limit", "2", "--trials", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    html = build_report(load_run(out))
    data = payload(html)
    assert data["trials"] == 2
    assert sorted((e["id"], e["trial"]) for e in data["entries"]) == sorted(
        (sid, t) for sid in {e["id"] for e in data["entries"]} for t in (0, 1)
    )
    assert "scenario trials" in html and "2 trials each" in html
    # Breakdown rows count scenarios and trials apart (2 trials each: twice as many trials).
    summary = json.loads((out / "summary.json").read_text())
    for name, row in summary["by_category"].items():
        members = {e["id"] for e in data["entries"] if name in e["categories"]}
        assert row["scenarios"] == len(members), name
        assert row["trials"] == 2 * len(members), name
    assert '<th class="num">scenarios</th><th class="num">trials</th>' in html
    (out / "summary.json").unlink()
    html = build_report(load_run(out))
    assert "summary.json is missing" in html
    assert len(payload(html)["entries"]) == 4
