"""Bootstrap intervals: hand-computed pieces, scipy's estimator, coverage, reproducibility."""

from __future__ import annotations

import time
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from toolplay.stats import ConfidenceInterval, Ratio, UncertaintySettings, bootstrap_intervals
from toolplay.stats import _bootstrap as uncertainty
from toolplay.stats._bootstrap import (
    interval_from_replicates,
    ratio_jackknife,
    ratio_replicates,
    ratio_value,
    resample_chunks,
)


def mean_ratio(values: np.ndarray) -> Ratio:
    return Ratio(values.reshape(-1, 1).astype(float), np.ones((values.size, 1)))


def test_ratio_value_and_jackknife_by_hand() -> None:
    # ToolTalk-like micro average: matches / predictions per conversation
    ratio = Ratio(np.array([[1.0], [3.0], [0.0]]), np.array([[2.0], [3.0], [1.0]]))
    assert ratio_value(ratio) == 4 / 6  # not the mean of 1/2, 1, 0
    assert ratio_jackknife(ratio).tolist() == pytest.approx([3 / 4, 1 / 3, 4 / 5])
    # AutoDE-like: per-trial averages (trial 1 of scenario 2 missing), then their mean
    per_trial = Ratio(
        np.array([[1.0, 0.5], [0.0, 0.0]]), np.array([[1.0, 1.0], [1.0, 0.0]]), per_column=True
    )
    assert ratio_value(per_trial) == pytest.approx(((1.0 + 0.0) / 2 + 0.5 / 1) / 2)


def test_empty_denominator_is_undefined_or_the_stated_value() -> None:
    none = Ratio(np.zeros((2, 1)), np.zeros((2, 1)))
    assert ratio_value(none) is None
    zero = Ratio(np.zeros((2, 1)), np.zeros((2, 1)), empty=0.0)
    assert ratio_value(zero) == 0.0
    index = np.array([[0, 0], [1, 1]])
    partly = Ratio(np.array([[1.0], [0.0]]), np.array([[2.0], [0.0]]))
    assert np.isnan(ratio_replicates(partly, index)[1])  # only scenario 1 drawn: 0/0


def test_percentile_interval_by_hand() -> None:
    replicates = np.arange(1, 101) / 100  # 0.01 .. 1.00
    ci = interval_from_replicates(
        0.5, replicates, np.array([0.4, 0.6]), level=0.95, method="percentile"
    )
    # linear interpolation at positions 0.025 * 99 and 0.975 * 99
    assert ci.low == pytest.approx(0.03475)
    assert ci.high == pytest.approx(0.97525)
    assert ci.se == pytest.approx(float(np.std(replicates, ddof=1)))


def test_bca_interval_by_hand() -> None:
    replicates = np.arange(1, 101) / 100
    jackknife = np.array([0.1, 0.2, 0.6])
    ci = interval_from_replicates(0.6, replicates, jackknife, level=0.9, method="bca")
    normal = NormalDist()
    z0 = normal.inv_cdf((59 + 60) / 200)  # 59 below 0.6, 60 at or below: ties count half
    u = [0.3 - 0.1, 0.3 - 0.2, 0.3 - 0.6]
    a = sum(x**3 for x in u) / (6 * sum(x**2 for x in u) ** 1.5)
    expected = []
    for z in (normal.inv_cdf(0.05), normal.inv_cdf(0.95)):
        level = normal.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
        expected.append(float(np.quantile(replicates, level)))
    assert ci.method == "bca"
    assert [ci.low, ci.high] == pytest.approx(expected, abs=1e-12)


def test_degenerate_samples() -> None:
    same = bootstrap_intervals({"m": mean_ratio(np.full(8, 0.7))}, UncertaintySettings(), "k")
    assert (same["m"].low, same["m"].high) == (0.7, 0.7)  # no variation seen, none shown
    one = bootstrap_intervals({"m": mean_ratio(np.array([0.3]))}, UncertaintySettings(), "k")
    assert one["m"] == ConfidenceInterval(
        estimate=0.3, low=None, high=None, se=None, n=1, method=None
    )


@pytest.mark.parametrize("method", ["percentile", "BCa"])
def test_matches_scipy_bootstrap_for_the_mean(method: str) -> None:
    x = np.random.default_rng(7).gamma(0.7, size=45)
    ours_method = "bca" if method == "BCa" else "percentile"
    replicates = np.concatenate(
        [
            ratio_replicates(mean_ratio(x), index)
            for index in resample_chunks(x.size, 2000, np.random.default_rng(11))
        ]
    )
    ours = interval_from_replicates(
        float(x.mean()),
        replicates,
        ratio_jackknife(mean_ratio(x)),
        level=0.9,
        method=ours_method,
    )
    theirs = stats.bootstrap(
        (x,),
        np.mean,
        n_resamples=2000,
        confidence_level=0.9,
        method=method,
        rng=np.random.default_rng(11),
    )
    assert ours.low == pytest.approx(theirs.confidence_interval.low, rel=1e-9)
    assert ours.high == pytest.approx(theirs.confidence_interval.high, rel=1e-9)
    assert ours.se == pytest.approx(theirs.standard_error, rel=1e-9)


def test_matches_scipy_bootstrap_for_a_ratio_and_per_trial_averages() -> None:
    rng = np.random.default_rng(3)
    den = rng.integers(1, 6, (30, 2)).astype(float)
    num = np.minimum(den, rng.integers(0, 6, (30, 2))).astype(float)

    def pooled(n: np.ndarray, d: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.asarray(n.sum(axis=axis) / d.sum(axis=axis))

    def per_trial(
        n0: np.ndarray, d0: np.ndarray, n1: np.ndarray, d1: np.ndarray, axis: int = -1
    ) -> np.ndarray:
        return np.asarray((pooled(n0, d0, axis) + pooled(n1, d1, axis)) / 2)

    cases = [
        (Ratio(num[:, :1], den[:, :1]), pooled, (num[:, 0], den[:, 0])),
        (
            Ratio(num, den, per_column=True),
            per_trial,
            (num[:, 0], den[:, 0], num[:, 1], den[:, 1]),
        ),
    ]
    for ratio, statistic, data in cases:
        ours = bootstrap_intervals({"m": ratio}, UncertaintySettings(seed=5), "group")["m"]
        theirs = stats.bootstrap(
            data,
            statistic,
            paired=True,
            vectorized=True,
            n_resamples=2000,
            method="BCa",
            rng=uncertainty.seeded_generator(5, "group"),
        )
        assert ours.low == pytest.approx(theirs.confidence_interval.low, rel=1e-9)
        assert ours.high == pytest.approx(theirs.confidence_interval.high, rel=1e-9)


def coverage(make: object, truth: float, repetitions: int = 200, **options: object) -> float:
    rng = np.random.default_rng(2024)
    hits = 0
    for repetition in range(repetitions):
        ratio = make(rng)  # type: ignore[operator]
        ci = bootstrap_intervals(
            {"m": ratio}, UncertaintySettings(resamples=1000, seed=repetition, **options), "sim"
        )["m"]
        assert ci.low is not None and ci.high is not None
        hits += ci.low <= truth <= ci.high
    return hits / repetitions


def clustered_scores(rng: np.random.Generator) -> Ratio:
    """40 scenarios x 3 trials; scenario success chance ~ Beta(2, 1) (skewed, mean 2/3)."""
    chance = rng.beta(2.0, 1.0, 40)
    wins = (rng.random((40, 3)) < chance[:, None]).sum(axis=1)
    return Ratio(wins[:, None].astype(float), np.full((40, 1), 3.0))


def micro_ratio(rng: np.random.Generator) -> Ratio:
    """ToolTalk-like precision: Poisson(4) predictions, matches ~ Binomial(pred, Beta(4, 2))."""
    predictions = rng.poisson(4.0, 50) + 1
    matches = rng.binomial(predictions, rng.beta(4.0, 2.0, 50))
    return Ratio(matches[:, None].astype(float), predictions[:, None].astype(float))


def per_trial_f1(rng: np.random.Generator) -> Ratio:
    """AutoDE-like: 40 dialogues x 3 trials of slot F1 in {0, .5, 1} around a dialogue mean."""
    mean = rng.beta(3.0, 1.5, 40)
    f1 = np.clip(np.round((mean[:, None] + rng.normal(0, 0.3, (40, 3))) * 2) / 2, 0, 1)
    return Ratio(f1, np.ones((40, 3)), per_column=True)


def test_intervals_cover_the_true_mean_at_about_the_nominal_rate() -> None:
    """200 seeded simulated runs each; coverage of 95 % intervals within 0.90..0.99.

    With 200 repetitions the binomial standard error at 0.95 is 0.015, so the band is about
    +-3 standard errors around nominal (a bootstrap with 40-50 scenarios runs a little under).
    """
    assert 0.90 <= coverage(clustered_scores, 2 / 3) <= 0.99
    assert 0.90 <= coverage(micro_ratio, 4 / 6) <= 0.99
    # F1 rounding makes the truth hard to state exactly: simulate it once, very large
    big = np.random.default_rng(0)
    mean = big.beta(3.0, 1.5, 400_000)
    truth = float(
        np.clip(np.round((mean[:, None] + big.normal(0, 0.3, (400_000, 1))) * 2) / 2, 0, 1).mean()
    )
    assert 0.90 <= coverage(per_trial_f1, truth) <= 0.99


def test_same_seed_same_bytes_other_seed_other_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    ratio = micro_ratio(np.random.default_rng(1))
    first = bootstrap_intervals({"m": ratio}, UncertaintySettings(), "metrics")
    again = bootstrap_intervals({"m": ratio}, UncertaintySettings(), "metrics")
    assert first["m"].model_dump_json() == again["m"].model_dump_json()
    other = bootstrap_intervals({"m": ratio}, UncertaintySettings(seed=1), "metrics")
    assert other["m"].low != first["m"].low
    monkeypatch.setattr(uncertainty, "_CHUNK_CELLS", 7)  # many small chunks: same draws
    chunked = bootstrap_intervals({"m": ratio}, UncertaintySettings(), "metrics")
    assert chunked["m"].model_dump_json() == first["m"].model_dump_json()


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(0, 1, allow_nan=False), min_size=2, max_size=30),
    st.sampled_from(["bca", "percentile"]),
)
def test_interval_lies_within_the_range_of_the_data(values: list[float], method: str) -> None:
    ci = bootstrap_intervals(
        {"m": mean_ratio(np.array(values))},
        UncertaintySettings(resamples=200, method=method),  # type: ignore[arg-type]
        "prop",
    )["m"]
    assert ci.low is not None and ci.high is not None
    assert min(values) - 1e-12 <= ci.low <= ci.high <= max(values) + 1e-12


def test_2848_scenarios_2000_resamples_well_under_a_second() -> None:
    rng = np.random.default_rng(0)
    ratios = {
        "similarity": mean_ratio(rng.random(2848)),
        "precision": Ratio(
            rng.integers(0, 4, (2848, 1)).astype(float), rng.integers(1, 5, (2848, 1)) * 1.0
        ),
    }
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        bootstrap_intervals(ratios, UncertaintySettings(), "metrics")
        best = min(best, time.perf_counter() - start)
    assert best < 0.5, f"{best:.3f} s for two metrics"
