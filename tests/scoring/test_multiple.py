"""Holm's correction by hand and against brute force; a ranking that claims only what it shows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolplay.stats import holm, significance_ranking


def test_holm_by_hand() -> None:
    # sorted: 0.005 (x4 = 0.02), 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1, raised to 0.06)
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, None, 0.9]) == pytest.approx([1.0, None, 1.0])
    assert holm([]) == []


@given(st.lists(st.floats(0, 1), min_size=1, max_size=8), st.floats(0.001, 0.2))
def test_holm_rejects_what_the_step_down_procedure_rejects(p: list[float], alpha: float) -> None:
    adjusted = holm(p)
    order = sorted(range(len(p)), key=lambda i: p[i])
    rejected: set[int] = set()
    for step, i in enumerate(order):  # reject while p_(k) <= alpha / (m - k)
        if p[i] > alpha / (len(p) - step):
            break
        rejected.add(i)
    assert {i for i, q in enumerate(adjusted) if q is not None and q <= alpha} == rejected
    assert all(q is not None and q >= raw for q, raw in zip(adjusted, p, strict=True))


def test_ranking_counts_only_significant_differences() -> None:
    estimates = {"a": 0.80, "b": 0.78, "c": 0.50, "d": None}
    differences = [
        ("a", "b", 0.02, 0.60),  # not significant: a and b share rank 1
        ("a", "c", 0.30, 0.001),
        ("b", "c", 0.28, 0.002),
    ]
    ranked = significance_ranking(estimates, differences, alpha=0.05)
    assert [(r.label, r.rank, r.better_than) for r in ranked] == [
        ("a", 1, ("c",)),
        ("b", 1, ("c",)),
        ("d", 1, ()),
        ("c", 3, ()),
    ]


def test_ranking_where_lower_is_better() -> None:
    ranked = significance_ranking(
        {"a": 3.0, "b": 5.0}, [("a", "b", -2.0, 0.01)], alpha=0.05, higher_is_better=False
    )
    assert [(r.label, r.rank) for r in ranked] == [("a", 1), ("b", 2)]
