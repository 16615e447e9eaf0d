"""Item analysis: discrimination with Fisher's interval, and trial disagreement."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from toolplay.stats import correlation_interval, discrimination, trial_disagreement

scores = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def test_fisher_interval_matches_the_textbook_formula() -> None:
    # r = 0.5 over 28 pairs: z = atanh(.5) = .5493, se = 1/5, z ± 1.96 se -> tanh
    low, high = correlation_interval(0.5, 28, 0.95) or (0.0, 0.0)
    assert low == pytest.approx(math.tanh(0.549306 - 1.959964 / 5), abs=1e-5)
    assert high == pytest.approx(math.tanh(0.549306 + 1.959964 / 5), abs=1e-5)
    assert low == pytest.approx(0.1560, abs=1e-4) and high == pytest.approx(0.7358, abs=1e-4)


def test_no_interval_below_four_runs_or_at_a_perfect_correlation() -> None:
    assert correlation_interval(0.5, 3, 0.95) is None
    assert correlation_interval(1.0, 50, 0.95) is None
    assert correlation_interval(-1.0, 50, 0.95) is None
    with pytest.raises(ValueError, match="between 0 and 1"):
        correlation_interval(0.5, 10, 1.0)
    with pytest.raises(ValueError, match="outside"):
        correlation_interval(1.5, 10, 0.95)


def test_a_wider_level_gives_a_wider_interval_around_r() -> None:
    narrow = correlation_interval(0.3, 20, 0.8)
    wide = correlation_interval(0.3, 20, 0.99)
    assert narrow is not None and wide is not None
    assert wide[0] < narrow[0] < 0.3 < narrow[1] < wide[1]


def test_discrimination_is_pearson_over_the_runs() -> None:
    item = [1.0, 1.0, 0.0, 0.0, 1.0, 0.0]
    rest = [0.9, 0.7, 0.2, 0.4, 0.6, 0.1]
    found = discrimination(item, rest, 0.95)
    assert found.n == 6
    assert found.r == pytest.approx(stats.pearsonr(item, rest).statistic)
    assert found.low is not None and found.high is not None and found.low < found.r < found.high


def test_a_mis_keyed_item_discriminates_in_reverse() -> None:
    rest = [0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99]
    item = [1.0 - r for r in rest]  # strong runs fail it
    found = discrimination(item, rest, 0.95)
    assert found.r == pytest.approx(-1.0)
    almost = discrimination([1, 1, 1, 0, 1, 0, 0, 0, 0, 0], rest, 0.95)
    assert almost.high is not None and almost.high < 0


def test_an_item_every_run_scores_alike_has_no_discrimination() -> None:
    found = discrimination([1.0, 1.0, 1.0, 1.0], [0.2, 0.5, 0.7, 0.9], 0.95)
    assert (found.r, found.low, found.high) == (None, None, None)
    assert discrimination([1.0], [0.5], 0.95).r is None


def test_trial_disagreement_examples() -> None:
    assert trial_disagreement([1.0]) is None
    assert trial_disagreement([]) is None
    assert trial_disagreement([1.0, 1.0, 1.0]) == 0.0
    assert trial_disagreement([1.0, 0.0]) == 1.0
    assert trial_disagreement([1.0, 1.0, 0.0, 0.0]) == pytest.approx(4 / 6)
    assert trial_disagreement([0.5, 1.0, 0.0]) == pytest.approx((0.5 + 0.5 + 1.0) / 3)
    with pytest.raises(ValueError, match="finite"):
        trial_disagreement([1.0, math.nan])


@given(st.lists(st.booleans(), min_size=2, max_size=12))
def test_for_pass_fail_trials_it_is_the_share_of_pairs_that_differ(outcomes: list[bool]) -> None:
    pairs = list(combinations(outcomes, 2))
    differ = sum(a != b for a, b in pairs) / len(pairs)
    assert trial_disagreement([float(o) for o in outcomes]) == pytest.approx(differ)


@given(st.lists(scores, min_size=2, max_size=10), st.floats(min_value=-1.0, max_value=1.0))
def test_disagreement_is_in_range_and_ignores_a_shift(values: list[float], shift: float) -> None:
    found = trial_disagreement(values)
    assert found is not None and 0.0 <= found <= 1.0 + 1e-12
    assert trial_disagreement([v + shift for v in values]) == pytest.approx(found, abs=1e-9)


@given(
    st.floats(min_value=-0.99, max_value=0.99),
    st.integers(min_value=4, max_value=500),
    st.floats(min_value=0.5, max_value=0.999),
)
def test_the_interval_holds_r_and_stays_in_range(r: float, n: int, level: float) -> None:
    bounds = correlation_interval(r, n, level)
    assert bounds is not None
    low, high = bounds
    assert -1.0 <= low <= r <= high <= 1.0
