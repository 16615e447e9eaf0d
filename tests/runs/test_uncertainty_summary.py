"""The summary's `uncertainty` section on real runs: it agrees with the summary's own numbers,
records its settings, and is byte-for-byte the same for the same stored results."""

from __future__ import annotations

import asyncio
import zlib
from pathlib import Path
from typing import Any

import pytest

from toolplay.roles import (
    ASSISTANTS,
    AssistantTurn,
    OracleAssistant,
    RoleContext,
    SilentAssistant,
    current_trial,
)
from toolplay.runs import RunConfig, RunUncertainty, execute_run, rescore_run
from toolplay.store import SUMMARY_FILE


class Coin:
    """The oracle on a seeded share of (scenario, trial) pairs, silent on the others."""

    name = "coin"

    def __init__(self, share: float) -> None:
        self.share = share

    async def respond(self, context: RoleContext) -> AssistantTurn:
        """Play the reference when this scenario's coin for this trial says so."""
        draw = zlib.crc32(f"{context.scenario.id}/{current_trial()}".encode()) % 1000
        if draw < self.share * 1000:
            return await OracleAssistant().respond(context)
        return await SilentAssistant().respond(context)


def run(out: Path, **fields: Any) -> dict[str, Any]:
    config = RunConfig(suite="sandbox", limit=30, assistant="coin", out=out, **fields)
    return asyncio.run(execute_run(config))


@pytest.fixture(scope="module")
def coin_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("coin") / "run"
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(ASSISTANTS, "coin", lambda argument, options: Coin(0.6))
        summary = run(out, trials=3)
    return out, summary


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
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(ASSISTANTS, "coin", lambda argument, options: Coin(0.5))
        wide = run(tmp_path / "run", ci_level=0.99, ci_resamples=500, ci_seed=3)
        # --resume may change how the summary is made: the run's results stay what they were
        narrow = run(tmp_path / "run", resume=True, ci_level=0.8)
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
