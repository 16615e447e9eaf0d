"""The terminal summary shows every section a summary may carry, markup-free."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from toolplay.cli import app
from toolplay.report import render_summary
from toolplay.runs import RunSummary, load_summary

SUMMARY = {
    "suite": "tooltalk:data",
    "suite_name": "tooltalk",
    "toolplay_version": "0",
    "assistant": "openai:gpt",
    "mode": "static",
    "user": "scripted",
    "trials": {
        "k": 3,
        "pass_hat_k": {"1": 0.75, "2": 0.5, "3": 0.375},
        "scenarios_with_k": {"1": 2, "2": 2, "3": 1},
        "score_per_trial": {"0": 0.5, "1": 0.6, "2": 0.7},
        "score_mean": 0.6,
        "score_std": 0.1,
    },
    "counts": {"conversations": 6, "matches": 9},
    "error_types": {"faulty_planning": 2},
    "scenarios": 6,
    "completed": 5,
    "errors": 1,
    "error_list": [{"scenario_id": "s1", "trial": 2, "error": "[red]boom[/red]\ntraceback"}],
    "termination": {"completed": 5, "infrastructure_error": 1},
    "usage": {"prompt_tokens": 12000, "completion_tokens": 345, "calls": 17},
    "metrics": {"success_rate": 0.5, "over_trials": {"success_rate": {"mean": 0.2, "std": 0.3}}},
    "splits": {
        "easy": {
            "counts": {"conversations": 2},
            "metrics": {"success_rate": 1.0},
            "error_types": {},
        }
    },
    "by_category": {"state_dependency": {"scenarios": 2, "trials": 3, "similarity": 0.25}},
    "by_domain": {"contacts": {"scenarios": 1, "trials": 1, "similarity": 0.5}},
    "by_augmentation": {"no_docs": {"scenarios": 2, "similarity": 0.125}},
}


def test_summary_sections() -> None:
    console = Console(record=True, width=160)
    render_summary(RunSummary.model_validate(SUMMARY), console)
    out = console.export_text()
    for expected in (
        "scenario trials",
        "0.500",
        "over_trials.success_rate",
        "0.200 ± 0.300",
        "By split",
        "easy",
        "1.000",
        "By category",
        "state_dependency",
        "0.250",
        "By augmentation",
        "no_docs",
        "0.125",
        "By domain",
        "contacts",
        "infrastructure_error",
        "17%",
        "12,000 prompt",
        "345 completion",
        "17 model call",
        "[red]boom[/red]",
        "Trials: pass^k",
        "0.375",
        "0.600 ± 0.100",
        "matches 9",
        "faulty_planning 2",
    ):
        assert expected in out, expected
    assert "traceback" not in out  # only the first line of an error


def test_an_empty_run_prints_its_counts() -> None:
    empty = {
        **{k: SUMMARY[k] for k in ("suite", "suite_name", "toolplay_version", "mode", "user")},
        "assistant": "no-call",
        "scenarios": 0,
        "completed": 0,
        "errors": 0,
        "termination": {},
        "usage": {},
        "metrics": {},
        "trials": {
            "k": 1,
            "pass_hat_k": {},
            "scenarios_with_k": {},
            "score_per_trial": {},
            "score_mean": None,
            "score_std": None,
        },
    }
    console = Console(record=True, width=100)
    render_summary(RunSummary.model_validate(empty), console)
    assert "scenarios" in console.export_text()


def test_breakdowns_at_80_columns_keep_every_value_whole(runs: dict[str, Path]) -> None:
    """Issue 14 item 12: at 80 columns a breakdown never cuts a value ("0.00…", "similari…");
    without room for the intervals it goes without them and says so."""
    summary = load_summary(runs["oracle"])
    narrow, wide = Console(width=80, record=True), Console(width=300, record=True)
    render_summary(summary, narrow)
    render_summary(summary, wide)
    text, wide_text = narrow.export_text(), wide.export_text()
    boxed = [line for line in text.splitlines() if line[:1] in "┏┃┡│└"]
    assert boxed and all(len(line) <= 80 for line in boxed)  # notes soft-wrap, tables fit
    table = text[text.index("By category") :]
    assert "…" not in table
    assert "intervals left out at this width" in table
    assert "intervals left out" not in wide_text
    assert "1.000–1.000" in wide_text
    for name in summary.by_category or {}:
        assert name in table


def _words(text: str) -> set[str]:
    return set(re.sub(r"[─-╿]", " ", text).split())


@pytest.fixture(scope="module")
def autode_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two trials of 20 AutoDE scripts: slot metrics, over_trials spreads, failure reasons
    with spaces, a breakdown by domain with a `dialogues` column, intervals everywhere."""
    out = tmp_path_factory.mktemp("autode") / "run"
    args = ["run", "--suite", "autode", "--assistant", "no-call", "--trials", "2"]
    result = CliRunner().invoke(app, [*args, "--limit", "20", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("width", [60, 80, 100])
def test_no_number_name_or_header_word_is_split(
    autode_run: Path, runs: dict[str, Path], width: int
) -> None:
    """Issue 24 item 4: at any width every word of the summary is a word of the wide one (an
    interval cell split over two lines, or a header folded mid-word, would make new ones)."""
    for run in (autode_run, runs["oracle"], runs["flaky"]):
        summary = load_summary(run)
        narrow, wide = Console(width=width, record=True), Console(width=400, record=True)
        render_summary(summary, narrow)
        render_summary(summary, wide)
        text = narrow.export_text()
        note = "intervals left out at this width (in summary.json and the HTML report) continued"
        note += " ".join(f" {t}," for t in ("By category", "By domain", "By split"))
        assert _words(text) <= _words(wide.export_text()) | _words(note), text
        assert "…" not in text
        assert all(len(line) <= width for line in text.splitlines() if line[:1] in "┏┃┡│└")
    assert "0.000 ± 0.000" in text or "over_trials" not in text
