"""Tests for the exact milestone-mapping DP in ``toolplay.methods.toolsandbox._mapping``."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolplay.methods.toolsandbox._mapping import TIE_TOLERANCE, Mapping, best_mapping

SimFn = Callable[[int, int, tuple[int, ...] | None], float]
TIE_VALUES = (0.0, 0.25, 0.5, 1.0)


def brute_force_mapping(
    sim: SimFn,
    k: int,
    n: int,
    edges: Sequence[tuple[int, int]] = (),
    references: dict[int, tuple[int, ...]] | None = None,
) -> Mapping:
    """Lexicographically smallest mapping within TIE_TOLERANCE of the best total."""
    refs = references or {}
    if k == 0:
        return Mapping((), (), 1.0)
    if n == 0:
        return Mapping((None,) * k, (0.0,) * k, 0.0)
    scored = []
    for idx in itertools.product(range(n), repeat=k):
        if any(idx[a] > idx[b] for a, b in edges):
            continue
        sims = tuple(
            sim(m, idx[m], tuple(idx[r] for r in refs[m]) if m in refs else None) for m in range(k)
        )
        scored.append((math.fsum(sims), idx, sims))
    top = max(total for total, _, _ in scored)
    _, idx, sims = min((s for s in scored if s[0] >= top - TIE_TOLERANCE), key=lambda s: s[1])
    return Mapping(idx, sims, top / k)


def table_fn(table: Sequence[Sequence[float]]) -> SimFn:
    return lambda m, i, ref: table[m][i]


@st.composite
def dags(draw: st.DrawFn, min_k: int = 0, max_k: int = 6) -> tuple[int, list[tuple[int, int]]]:
    """Random DAG: edges i < j with a random density, then a random relabelling."""
    k = draw(st.integers(min_k, max_k))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.9]))
    perm = draw(st.permutations(range(k)))
    edges = []
    for i, j in itertools.combinations(range(k), 2):
        if draw(st.floats(0, 1)) < density or (min_k >= 2 and (i, j) == (0, 1)):
            edges.append((perm[i], perm[j]))
    return k, edges


def values(kind: str) -> st.SearchStrategy[float]:
    if kind == "ties":
        return st.sampled_from(TIE_VALUES)
    if kind == "grid":  # distinct totals differ by far more than the tie tolerance
        return st.integers(0, 10**6).map(lambda x: x / 10**6)
    return st.floats(0, 1)


def respects(indices: Sequence[int | None], edges: Sequence[tuple[int, int]]) -> bool:
    return all(indices[a] <= indices[b] for a, b in edges)  # type: ignore[operator]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    dag=dags(), n=st.integers(0, 7), kind=st.sampled_from(["ties", "grid", "raw"]), data=st.data()
)
def test_matches_brute_force(
    dag: tuple[int, list[tuple[int, int]]], n: int, kind: str, data: st.DataObject
) -> None:
    k, edges = dag
    table = data.draw(
        st.lists(st.lists(values(kind), min_size=n, max_size=n), min_size=k, max_size=k)
    )
    got = best_mapping(table if k else np.zeros((0, n)), n, edges)
    want = brute_force_mapping(table_fn(table), k, n, edges)
    assert abs(got.mean - want.mean) <= 1e-12
    if k and n:
        assert respects(got.indices, edges)
        assert None not in got.indices
        assert got.similarities == tuple(table[m][i or 0] for m, i in enumerate(got.indices))
        assert got.mean == pytest.approx(math.fsum(got.similarities) / k, abs=1e-15)
    if kind != "raw":
        assert got.indices == want.indices


@st.composite
def referenced(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]], dict[int, tuple[int, ...]]]:
    """A DAG and, for some milestones, one or several ancestors as references."""
    k, edges = draw(dags(min_k=2, max_k=5))
    ancestors: dict[int, set[int]] = {m: set() for m in range(k)}
    for _ in range(k):  # transitive closure by repeated relaxation
        for a, b in edges:
            ancestors[b] |= {a} | ancestors[a]
    refs: dict[int, tuple[int, ...]] = {}
    for m in range(k):
        if ancestors[m] and draw(st.booleans()):
            chosen = draw(st.lists(st.sampled_from(sorted(ancestors[m])), min_size=1, unique=True))
            refs[m] = tuple(chosen)
    if not refs:
        m = next(m for m in range(k) if ancestors[m])
        refs[m] = (min(ancestors[m]),)
    return k, edges, refs


def lazy_sim(
    rng: random.Random, kind: str, refs: dict[int, tuple[int, ...]], key: Callable[[int], int]
) -> SimFn:
    """A random similarity that depends on reference indices only through `key`."""
    memo: dict[tuple[int, int, tuple[int, ...] | None], float] = {}

    def sim(m: int, i: int, ref: tuple[int, ...] | None) -> float:
        assert (ref is None) == (m not in refs)
        seen = None if ref is None else tuple(key(j) for j in ref)
        if (m, i, seen) not in memo:
            memo[(m, i, seen)] = (
                rng.choice(TIE_VALUES) if kind == "ties" else rng.randrange(10**6) / 10**6
            )
        return memo[(m, i, seen)]

    return sim


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    problem=referenced(),
    n=st.integers(1, 6),
    kind=st.sampled_from(["ties", "grid"]),
    seed=st.integers(0, 2**32),
    changes=st.sets(st.integers(0, 5)),
    classes=st.booleans(),
)
def test_references_match_brute_force(
    problem: tuple[int, list[tuple[int, int]], dict[int, tuple[int, ...]]],
    n: int,
    kind: str,
    seed: int,
    changes: set[int],
    classes: bool,
) -> None:
    """Several references per milestone; similarities see exact indices or world versions."""
    k, edges, refs = problem

    def version(j: int) -> int:
        return sum(1 for c in changes if c <= j) if classes else j

    sim = lazy_sim(random.Random(seed), kind, refs, version)
    got = best_mapping(sim, n, edges, references=refs, k=k, key=lambda r, j: version(j))
    want = brute_force_mapping(sim, k, n, edges, refs)
    assert abs(got.mean - want.mean) <= 1e-12
    assert got.indices == want.indices
    assert got.similarities == want.similarities
    assert respects(got.indices, edges)


def test_single_reference_given_as_int() -> None:
    def sim(m: int, i: int, ref: tuple[int, ...] | None) -> float:
        if m == 0:
            return [0.5, 0.4, 0.9, 0.1][i]
        assert ref is not None and len(ref) == 1
        return 1.0 if i == ref[0] + 1 else 0.0

    got = best_mapping(sim, 4, [(0, 1)], references={1: 0}, k=2)
    assert got.indices == (2, 3)


def test_work_grows_with_versions_not_messages() -> None:
    """A chain where each milestone refers to all earlier ones: few classes, few calls."""
    k, n = 6, 400
    changes = [50, 120, 300]
    calls = 0

    def version(j: int) -> int:
        return sum(1 for c in changes if c <= j)

    def sim(m: int, i: int, ref: tuple[int, ...] | None) -> float:
        nonlocal calls
        calls += 1
        seen = () if ref is None else tuple(version(j) for j in ref)
        return 1.0 if i == 60 * (m + 1) and all(v == m % 4 for v in seen[-1:]) else 0.1

    refs = {m: tuple(range(m)) for m in range(1, k)}
    edges = [(m, m + 1) for m in range(k - 1)]
    got = best_mapping(sim, n, edges, references=refs, k=k, key=lambda r, j: version(j))
    assert calls < 20 * n * k  # the exact-index search would need about n ** 5 calls
    assert got.indices[0] == 60


def test_no_milestones() -> None:
    assert best_mapping([], 5) == Mapping((), (), 1.0)
    assert best_mapping(lambda m, i, r: 0.0, 3, k=0) == Mapping((), (), 1.0)


def test_no_messages() -> None:
    assert best_mapping([[], []], 0, [(0, 1)]) == Mapping((None, None), (0.0, 0.0), 0.0)
    assert best_mapping(lambda m, i, r: 1.0, 0, k=1).indices == (None,)


def test_chain_forces_order() -> None:
    # Unconstrained, milestone 0 would like index 2 and milestone 1 index 0.
    table = [[0.1, 0.2, 1.0], [1.0, 0.3, 0.2]]
    assert best_mapping(table, 3).indices == (2, 0)
    got = best_mapping(table, 3, [(0, 1)])
    assert got.indices == (2, 2)
    assert got.similarities == (1.0, 0.2)
    assert got.mean == pytest.approx(0.6)


def test_antichain_picks_each_maximum() -> None:
    table = np.array([[0.0, 0.9, 0.1], [0.7, 0.0, 0.0], [0.2, 0.3, 0.8]])
    got = best_mapping(table, 3)
    assert got.indices == (1, 0, 2)
    assert got.mean == pytest.approx(0.8)


def test_shared_index_allowed() -> None:
    got = best_mapping([[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]], 2, [(0, 1), (1, 2)])
    assert got.indices == (1, 1, 1)
    assert got.mean == 1.0


def test_ties_take_lexicographically_smallest() -> None:
    assert best_mapping(np.zeros((3, 4)), 4, [(2, 0)]).indices == (0, 0, 0)
    assert best_mapping([[1.0, 1.0], [1.0, 0.0]], 2, [(0, 1)]).indices == (0, 0)


def test_cycle_rejected() -> None:
    with pytest.raises(ValueError, match="cycle: 0 -> 1 -> 2 -> 0"):
        best_mapping(np.zeros((3, 2)), 2, [(0, 1), (1, 2), (2, 0)])
    with pytest.raises(ValueError, match="cycle: 1 -> 1"):
        best_mapping(np.zeros((2, 2)), 2, [(1, 1)])
    with pytest.raises(ValueError, match="cycle: 1 -> 3 -> 1"):
        best_mapping(np.zeros((4, 2)), 2, [(0, 1), (3, 1), (1, 3)])


def test_unknown_milestone_in_edge_rejected() -> None:
    with pytest.raises(ValueError, match=r"\(0, 3\).*unknown milestone"):
        best_mapping(np.zeros((2, 2)), 2, [(0, 3)])


def test_bad_reference_rejected() -> None:
    def sim(m: int, i: int, ref: tuple[int, ...] | None) -> float:
        return 0.5

    with pytest.raises(ValueError, match="reference milestone 1 of milestone 0"):
        best_mapping(sim, 3, [(0, 1)], references={0: 1}, k=2)  # descendant, not ancestor
    with pytest.raises(ValueError, match="reference milestone 1 of milestone 2"):
        best_mapping(sim, 3, [(0, 2)], references={2: 1}, k=3)  # unrelated
    with pytest.raises(ValueError, match="unknown milestone"):
        best_mapping(sim, 3, references={0: 5}, k=2)
    with pytest.raises(ValueError, match="callable"):
        best_mapping([[0.5], [0.5]], 1, [(0, 1)], references={1: 0})
    with pytest.raises(ValueError, match="k must be given"):
        best_mapping(sim, 3)


@pytest.mark.parametrize("bad", [1.5, -0.1, float("nan")])
def test_out_of_range_similarity_rejected(bad: float) -> None:
    with pytest.raises(ValueError, match=r"milestone 1 at index 2"):
        best_mapping([[0.0, 0.0, 0.0], [0.0, 0.0, bad]], 3)
    with pytest.raises(ValueError, match=r"milestone 1 at index 2"):
        best_mapping(lambda m, i, r: bad if (m, i) == (1, 2) else 0.0, 3, k=2)


def test_shape_mismatch_rejected() -> None:
    with pytest.raises(ValueError, match="shape"):
        best_mapping(np.zeros((2, 3)), 4)
    with pytest.raises(ValueError, match="shape"):
        best_mapping(np.zeros((2, 3)), 3, k=3)


def test_reference_changes_the_optimum() -> None:
    # Milestone 1 only scores when it lands right after its reference, milestone 0.
    def sim(m: int, i: int, ref: int | None) -> float:
        if m == 0:
            return [0.5, 0.4, 0.9, 0.1][i]
        assert ref is not None
        return 1.0 if i == ref[0] + 1 else 0.0

    got = best_mapping(sim, 4, [(0, 1)], references={1: 0}, k=2)
    assert got.indices == (2, 3)
    assert got.similarities == (0.9, 1.0)


def test_realistic_size_runs() -> None:
    rng = np.random.default_rng(0)
    table = rng.random((6, 30))
    edges = [(0, 1), (1, 2), (0, 3), (3, 4), (2, 5), (4, 5)]
    got = best_mapping(table, 30, edges)
    assert respects(got.indices, edges)
    assert 0.0 <= got.mean <= 1.0
    assert best_mapping(np.zeros((6, 30)), 30, edges).indices == (0,) * 6
    big = best_mapping(rng.random((12, 30)), 30, [(0, 1), (2, 3)])
    assert respects(big.indices, [(0, 1), (2, 3)])

    def sim(m: int, i: int, ref: tuple[int, ...] | None) -> float:
        return float(table[m, i]) if ref is None else float(table[m, i]) * (i >= ref[0])

    refd = best_mapping(sim, 30, edges, references={5: 0, 4: 3}, k=6)
    assert respects(refd.indices, edges)
