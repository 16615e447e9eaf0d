"""Agreement statistics checked against scipy and against ICC(3,1) worked by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from toolplay.stats import agreement, icc_3_1, pearson, spearman

# Shrout & Fleiss (1979), Table 2: 6 targets rated by 4 judges; the paper reports ICC(3,1) = .71.
SHROUT_FLEISS = [
    [9, 2, 5, 8],
    [6, 1, 3, 2],
    [8, 4, 6, 8],
    [7, 1, 2, 6],
    [10, 5, 6, 9],
    [6, 2, 4, 7],
]


def test_icc_matches_shrout_fleiss_published_value() -> None:
    assert icc_3_1(SHROUT_FLEISS) == pytest.approx(0.7148, abs=1e-4)


def test_icc_two_raters_worked_by_hand() -> None:
    # Subjects (rows) x raters (cols):
    #   [1, 2], [2, 2], [3, 5]
    # grand mean = 15/6 = 2.5; row means 1.5, 2, 4; column means 2, 3
    # SS_total = 2.25+.25+.25+.25+.25+6.25 = 9.5
    # SS_rows  = 2 * (1 + .25 + 2.25) = 7.0      -> MS_rows  = 7.0 / 2 = 3.5
    # SS_cols  = 3 * (.25 + .25) = 1.5
    # SS_error = 9.5 - 7.0 - 1.5 = 1.0            -> MS_error = 1.0 / (2 * 1) = 0.5
    # ICC(3,1) = (3.5 - 0.5) / (3.5 + 1 * 0.5) = 0.75
    assert icc_3_1([[1, 2], [2, 2], [3, 5]]) == pytest.approx(0.75)


def test_icc_ignores_a_constant_rater_offset_but_not_disagreement() -> None:
    base = [0.1, 0.5, 0.9, 0.3]
    assert icc_3_1([[v, v + 0.2] for v in base]) == pytest.approx(1.0)
    assert icc_3_1([[v, 1 - v] for v in base]) == pytest.approx(-1.0)


def test_undefined_statistics_are_none() -> None:
    assert pearson([1.0], [2.0]) is None
    assert pearson([1.0, 1.0, 1.0], [0.0, 0.5, 1.0]) is None
    assert spearman([0.3, 0.3], [0.1, 0.9]) is None
    assert icc_3_1([[1.0, 1.0], [1.0, 1.0]]) is None
    assert icc_3_1([[0.5, 0.7]]) is None
    result = agreement([1.0, 1.0], [1.0, 1.0])
    assert (result.n, result.pearson, result.spearman, result.icc_3_1) == (2, None, None, None)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="length"):
        pearson([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="finite"):
        spearman([1.0, math.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match="one rating per rater"):
        icc_3_1([[1.0, 2.0], [1.0]])


scores = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
pairs = st.integers(min_value=3, max_value=30).flatmap(
    lambda n: st.tuples(
        st.lists(scores, min_size=n, max_size=n), st.lists(scores, min_size=n, max_size=n)
    )
)


@settings(max_examples=150, deadline=None)
@given(pairs)
def test_correlations_match_scipy(data: tuple[list[float], list[float]]) -> None:
    x, y = data
    ours_p, ours_s = pearson(x, y), spearman(x, y)
    if len(set(x)) > 1 and len(set(y)) > 1:
        assert ours_p is not None and ours_s is not None
        assert ours_p == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-9)
        assert ours_s == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-9)
    else:
        assert ours_p is None and ours_s is None


@settings(max_examples=150, deadline=None)
@given(pairs)
def test_icc_properties(data: tuple[list[float], list[float]]) -> None:
    x, y = data
    value = icc_3_1(list(zip(x, y, strict=True)))
    if value is None:
        return
    assert value <= 1.0 + 1e-9
    # Swapping the raters or shifting one of them by a constant leaves ICC(3,1) unchanged.
    assert icc_3_1(list(zip(y, x, strict=True))) == pytest.approx(value, abs=1e-9)
    mx, my = sum(x) / len(x), sum(y) / len(y)
    cov = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    var = sum((a - mx) ** 2 for a in x) + sum((b - my) ** 2 for b in y)
    if var > 1e-6:  # below, adding 3.0 loses the digits the statistic is made of
        shifted = icc_3_1(list(zip(x, [v + 3.0 for v in y], strict=True)))
        assert shifted == pytest.approx(value, abs=1e-7)
    # With two raters, ICC(3,1) = 2·cov / (var_x + var_y) (sample moments).
    if var > 1e-9:
        assert value == pytest.approx(2 * cov / var, abs=1e-7)
