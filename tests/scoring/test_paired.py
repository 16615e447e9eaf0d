"""Paired comparison: exact and Monte Carlo permutation tests, planted and absent differences."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from toolplay.stats import PairedDifference, Ratio, UncertaintySettings, paired_difference
from toolplay.stats._paired import sign_flip_test


def means(values: np.ndarray) -> Ratio:
    return Ratio(values.reshape(-1, 1).astype(float), np.ones((values.size, 1)))


def test_exact_test_by_hand() -> None:
    # differences 1, 2, 3: the 8 sign patterns give sums 6, 4, 2, 0, 0, -2, -4, -6;
    # only the observed pattern reaches 6, so p = 2 * 1/8
    a, b = means(np.array([1.0, 2.0, 3.0])), means(np.zeros(3))
    p, kind, count = sign_flip_test(a, b, permutations=2000, rng=np.random.default_rng(0))
    assert (p, kind, count) == (0.25, "exact", 8)


def test_exact_test_matches_scipy() -> None:
    rng = np.random.default_rng(4)
    x, y = rng.random(9), rng.random(9) + 0.2
    ours, kind, _ = sign_flip_test(
        means(x), means(y), permutations=2000, rng=np.random.default_rng(0)
    )
    theirs = stats.permutation_test(
        (x, y),
        lambda u, v, axis: np.mean(u, axis=axis) - np.mean(v, axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=2000,
    )
    assert kind == "exact"
    assert ours == pytest.approx(theirs.pvalue, rel=1e-12)


def test_monte_carlo_test_agrees_with_scipy_within_its_noise() -> None:
    rng = np.random.default_rng(5)
    x = rng.random(40)
    y = x + rng.normal(0.04, 0.15, 40)
    ours, kind, count = sign_flip_test(
        means(x), means(y), permutations=20000, rng=np.random.default_rng(1)
    )
    theirs = stats.permutation_test(
        (x, y),
        lambda u, v, axis: np.mean(u, axis=axis) - np.mean(v, axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=20000,
        rng=np.random.default_rng(2),
    )
    assert (kind, count) == ("monte_carlo", 20000)
    assert ours is not None
    noise = 4 * np.sqrt(theirs.pvalue * (1 - theirs.pvalue) / 20000) * 2
    assert abs(ours - theirs.pvalue) <= noise


def difference(a: Ratio, b: Ratio, seed: int = 0) -> PairedDifference:
    return paired_difference("m", a, b, UncertaintySettings(seed=seed), "test")


def test_finds_a_planted_difference() -> None:
    rng = np.random.default_rng(6)
    base = rng.random(60)
    better = np.clip(base + 0.08 + rng.normal(0, 0.05, 60), 0, 1)
    result = difference(means(better), means(base))
    assert result.p_value is not None and result.p_value < 0.01
    assert result.low is not None and result.low > 0
    assert result.difference == pytest.approx(float(better.mean() - base.mean()))
    assert result.test == "monte_carlo" and result.n == 60


def test_identical_runs_differ_by_nothing() -> None:
    values = means(np.random.default_rng(7).random(30))
    result = difference(values, values)
    assert result.difference == 0.0
    assert (result.low, result.high) == (0.0, 0.0)
    assert result.p_value == 1.0


def test_no_planted_difference_is_rarely_called_significant() -> None:
    """200 seeded pairs of runs of one assistant: about 5 % false positives at 0.05."""
    rng = np.random.default_rng(8)
    rejected = 0
    for repetition in range(200):
        difficulty = rng.beta(2, 2, 25)
        a = (rng.random(25) < difficulty).astype(float)
        b = (rng.random(25) < difficulty).astype(float)
        result = paired_difference(
            "m", means(a), means(b), UncertaintySettings(resamples=500, seed=repetition), "sim"
        )
        rejected += result.p_value is not None and result.p_value < 0.05
    assert rejected / 200 <= 0.09  # nominal 0.05; binomial sd 0.015


def test_ratio_metric_is_recomputed_under_each_swap() -> None:
    # precision = matches / predictions; swapping a scenario moves both parts together
    a = Ratio(np.array([[2.0], [0.0], [3.0]]), np.array([[2.0], [1.0], [4.0]]))
    b = Ratio(np.array([[1.0], [0.0], [1.0]]), np.array([[2.0], [1.0], [4.0]]))
    result = difference(a, b)
    assert result.left == pytest.approx(5 / 7) and result.right == pytest.approx(2 / 7)
    assert result.test == "exact" and result.permutations == 8
    # the two patterns as extreme as observed (identity and swap of the zero scenario)
    assert result.p_value == pytest.approx(2 * 2 / 8)


def test_same_seed_same_result() -> None:
    rng = np.random.default_rng(9)
    a, b = means(rng.random(50)), means(rng.random(50))
    assert difference(a, b).model_dump_json() == difference(a, b).model_dump_json()
    assert difference(a, b, seed=1).p_value != difference(a, b).p_value
