"""Spread over trials and the smallest detectable difference, by hand and by simulation."""

from __future__ import annotations

from math import sqrt

import numpy as np
import pytest

from toolplay.stats import scenario_spreads, trial_power

Z = 1.959963984540054 + 0.8416212335729143  # z_0.975 + z_0.8


def test_by_hand() -> None:
    power = trial_power({"a": [1.0, 0.0], "b": [1.0, 1.0], "c": [0.0, 0.0]}, level=0.95, power=0.8)
    assert power is not None
    within = 0.5 / 3  # pooled: (1 * 0.5 + 1 * 0 + 1 * 0) / 3 degrees of freedom
    between = 0.25 - within / 2  # variance of the means 0.5, 1, 0 less trial noise
    assert power.within_sd == pytest.approx(sqrt(within))
    assert power.between_sd == pytest.approx(sqrt(between))
    assert (power.scenarios, power.trials, power.varying) == (3, 2, 1)
    now = power.detectable[0]
    assert now.trials == 2
    assert now.se == pytest.approx(sqrt((between + within / 2) / 3))
    assert now.upper == pytest.approx(Z * sqrt(2 * (between + within / 2) / 3))
    assert now.floor == pytest.approx(Z * sqrt(2 * within / (2 * 3)))
    assert [d.trials for d in power.detectable] == [2, 4, 8, None]
    assert power.detectable[-1].floor == 0.0
    assert [s.scenario_id for s in power.most_variable] == ["a"]


def test_nothing_to_say_without_repeated_trials() -> None:
    assert trial_power({"a": [1.0], "b": [0.0]}, level=0.95, power=0.8) is None
    assert trial_power({"a": [1.0, 0.0]}, level=0.95, power=0.8) is None


def test_more_trials_never_raise_the_detectable_difference() -> None:
    rng = np.random.default_rng(0)
    scores = {f"s{i}": list(rng.random(3)) for i in range(20)}
    power = trial_power(scores, level=0.9, power=0.8)
    assert power is not None
    uppers = [d.upper for d in power.detectable]
    floors = [d.floor for d in power.detectable]
    assert uppers == sorted(uppers, reverse=True) and floors == sorted(floors, reverse=True)


def test_variance_components_recover_a_simulated_design() -> None:
    """400 scenarios with true sd 0.2 between and 0.3 within, 4 trials: both found within 10 %."""
    rng = np.random.default_rng(1)
    means = rng.normal(0.5, 0.2, 400)
    scores = {f"s{i}": list(m + rng.normal(0, 0.3, 4)) for i, m in enumerate(means)}
    power = trial_power(scores, level=0.95, power=0.8)
    assert power is not None
    assert power.between_sd == pytest.approx(0.2, rel=0.1)
    assert power.within_sd == pytest.approx(0.3, rel=0.1)
    # the standard error it predicts for the run's mean is the one the simulation shows
    run_means = [
        float(np.mean(rng.normal(0.5, 0.2, 400)[:, None] + rng.normal(0, 0.3, (400, 4))))
        for _ in range(300)
    ]
    assert power.detectable[0].se == pytest.approx(float(np.std(run_means)), rel=0.15)


def test_spreads_most_variable_first() -> None:
    spreads = scenario_spreads({"a": [1.0, 1.0], "b": [0.0, 1.0, 1.0], "c": [0.5]})
    assert [(s.scenario_id, s.trials) for s in spreads] == [("b", 3), ("a", 2)]
    assert spreads[0].sd == pytest.approx(sqrt(1 / 3))
