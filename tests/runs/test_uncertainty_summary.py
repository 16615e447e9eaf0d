"""The summary's `uncertainty` section on real runs: it agrees with the summary's own numbers,
records its settings, and is byte-for-byte the same for the same stored results."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from toolplay.report import render_summary
from toolplay.runs import (
    RunConfig,
    RunSummary,
    RunUncertainty,
    apply_options,
    execute_run,
    option_keys,
    rescore_run,
    run_identity,
)
from toolplay.stats import UncertaintySettings
from toolplay.store import SUMMARY_FILE

PLUGIN = str(Path(__file__).with_name("coin_plugin.py"))


def run(out: Path, share: float = 0.6, **fields: Any) -> dict[str, Any]:
    config = RunConfig(
        suite="sandbox", limit=30, assistant=f"coin:{share}", out=out, plugins=[PLUGIN], **fields
    )
    summary: RunSummary = asyncio.run(execute_run(config))
    return summary.to_json()


@pytest.fixture(scope="module")
def coin_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("coin") / "run"
    return out, run(out, trials=3)


def test_every_headline_figure_has_its_interval(coin_run: tuple[Path, dict[str, Any]]) -> None:
    _, summary = coin_run
    section = RunUncertainty.model_validate(summary["uncertainty"])
    assert section.settings.model_dump() == {
        "level": 0.95,
        "resamples": 2000,
        "seed": 0,
        "method": "bca",
        "power": 0.8,
    }
    assert set(section.metrics) == set(summary["metrics"])
    for name, interval in section.metrics.items():
        assert interval.estimate == pytest.approx(summary["metrics"][name], abs=1e-12)
        assert interval.low is not None and interval.high is not None
        assert interval.low <= interval.estimate <= interval.high
        assert interval.n == 30
    assert set(section.pass_hat_k) == set(summary["trials"]["pass_hat_k"]) == {"1", "2", "3"}
    for k, interval in section.pass_hat_k.items():
        assert interval.estimate == pytest.approx(summary["trials"]["pass_hat_k"][k])
    categories = section.breakdowns["by_category"]
    assert set(categories) == set(summary["by_category"])
    for name, intervals in categories.items():
        assert intervals["similarity"].estimate == pytest.approx(
            summary["by_category"][name]["similarity"]
        )


def test_trial_power_from_a_run_with_trials(coin_run: tuple[Path, dict[str, Any]]) -> None:
    _, summary = coin_run
    power = RunUncertainty.model_validate(summary["uncertainty"]).trials
    assert power is not None
    assert power.trials == 3 and power.scenarios == 30
    assert power.varying > 0 and power.within_sd > 0  # the coin lands differently per trial
    assert power.most_variable and all(s.sd > 0 for s in power.most_variable)
    assert [d.trials for d in power.detectable] == [3, 6, 12, None]


def test_same_results_same_bytes(coin_run: tuple[Path, dict[str, Any]]) -> None:
    out, _ = coin_run
    written = (out / SUMMARY_FILE).read_bytes()
    rescore_run(out)
    assert (out / SUMMARY_FILE).read_bytes() == written
    rescore_run(out)
    assert (out / SUMMARY_FILE).read_bytes() == written


def test_settings_change_the_intervals_not_the_run(tmp_path: Path) -> None:
    wide = run(
        tmp_path / "run", 0.5, uncertainty=UncertaintySettings(level=0.99, resamples=500, seed=3)
    )
    # --resume may change how the summary is made: the run's results stay what they were
    narrow = run(tmp_path / "run", 0.5, resume=True, uncertainty=UncertaintySettings(level=0.8))
    assert narrow["metrics"] == wide["metrics"]
    settings = wide["uncertainty"]["settings"]
    assert (settings["level"], settings["resamples"], settings["seed"]) == (0.99, 500, 3)
    assert narrow["uncertainty"]["settings"]["level"] == 0.8
    width = {
        name: s["uncertainty"]["metrics"]["similarity"]["high"]
        - s["uncertainty"]["metrics"]["similarity"]["low"]
        for name, s in (("wide", wide), ("narrow", narrow))
    }
    assert width["narrow"] < width["wide"]


def test_score_keeps_the_runs_settings_unless_given_new_ones(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = run(out, 0.5, uncertainty=UncertaintySettings(level=0.9, resamples=300, seed=7))
    written = (out / SUMMARY_FILE).read_bytes()
    assert rescore_run(out).to_json() == first  # the stored settings, not the defaults
    assert (out / SUMMARY_FILE).read_bytes() == written
    other = UncertaintySettings(method="percentile")
    rescored = rescore_run(out, uncertainty=other).to_json()
    assert rescored["uncertainty"]["settings"] == other.model_dump()
    again = rescore_run(out).to_json()  # the new settings are now the run's
    assert again["uncertainty"]["settings"]["method"] == "percentile"
    assert {k: v for k, v in again.items() if k != "uncertainty"} == {
        k: v for k, v in first.items() if k != "uncertainty"
    }


def test_interval_settings_are_options_outside_the_runs_identity() -> None:
    config = RunConfig.model_validate(
        apply_options({"suite": "quick"}, {"ci_level": 0.8, "ci_method": "percentile"})
    )
    assert config.uncertainty == UncertaintySettings(level=0.8, method="percentile")
    assert {"ci_level", "ci_resamples", "ci_seed", "ci_method", "ci_power"} <= set(option_keys())
    assert run_identity(config) == run_identity(RunConfig(suite="quick"))
    assert "uncertainty" in RunConfig.model_json_schema()["properties"]


def test_a_plugin_scorer_without_parts_gets_intervals_on_its_mean_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example plugin's scorer declares no parts: its mean scenario score is resampled."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "plugin_example"))
    config = RunConfig(suite="counter", out=tmp_path / "run", plugins=["toolplay_counter"])
    summary = asyncio.run(execute_run(config))
    assert summary.uncertainty is not None
    score = summary.uncertainty.metrics["score"]
    assert score.estimate == summary.metrics.get("target_hit_rate") == 1.0
    assert (score.low, score.high, score.n) == (1.0, 1.0, 2)
    console = Console(width=120, record=True)
    render_summary(summary, console)
    assert re.search(r"score\s+│\s+1\.000\s+│\s+1\.000–1\.000", console.export_text())
