"""Column similarities and the Hungarian row assignment, against brute force."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolplay.methods.toolsandbox._similarity import (
    compile_target,
    exact_equal,
    geometric_mean,
    rouge_l,
    rows_similarity,
)


def test_exact_keeps_bools_apart_and_phone_numbers_as_given() -> None:
    assert exact_equal(3, 3.0) and not exact_equal(True, 1) and not exact_equal("1", 1)
    assert exact_equal({"a": [1, None]}, {"a": [1.0, None]})
    phone = compile_target("+14155550142", name="phone_number")
    assert phone("+14155550142") == 1.0
    assert phone("+1 (415) 555-0142") == 0.0 and phone("4155550142") == 0.0


def test_similarity_specs() -> None:
    assert compile_target({"contains": "Bob"})("talk to Bob later") == 1.0
    assert compile_target({"contains": "Bob"})("talk to BOB later") == 0.0
    assert compile_target({"contains": "Bob", "ignore_case": True})("talk to BOB later") == 1.0
    assert compile_target({"close": 10, "tolerance": 0.5})(10.4) == 1.0
    assert compile_target({"close": 10, "tolerance": 0.5})(True) == 0.0
    assert compile_target({"one_of": ["a", "b"]})("b") == 1.0
    assert compile_target("see you at noon", default="rouge")("see you at noon!") == 1.0
    assert rouge_l("", "") == 1.0 and rouge_l("a b", "") == 0.0
    assert 0 < rouge_l("running ten minutes late", "I am running 10 minutes late") < 1
    with pytest.raises(ValueError, match="name one similarity"):
        compile_target({"exact": 1, "rouge": "x"})


@settings(max_examples=200, deadline=None)
@given(
    n_targets=st.integers(0, 4),
    n_rows=st.integers(0, 5),
    data=st.data(),
)
def test_rows_similarity_is_the_best_assignment(
    n_targets: int, n_rows: int, data: st.DataObject
) -> None:
    values = st.sampled_from([0.0, 0.2, 0.5, 0.9, 1.0])
    table = [[data.draw(values) for _ in range(n_rows)] for _ in range(n_targets)]
    rows = [{"r": r} for r in range(n_rows)]
    targets = [{"r": (lambda v, t=t: table[t][v])} for t in range(n_targets)]
    for exact in (True, False):
        got = rows_similarity(rows, targets, exact_count=exact)
        if (exact and n_rows != n_targets) or n_rows < n_targets:
            assert got == 0.0
            continue
        best = max(
            (
                geometric_mean([table[t][p[t]] for t in range(n_targets)])
                for p in itertools.permutations(range(n_rows), n_targets)
            ),
            default=1.0,
        )
        assert math.isclose(got, best, abs_tol=1e-12)
