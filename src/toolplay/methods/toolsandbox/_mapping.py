"""Exact best milestone mapping for ToolSandbox-style scoring.

Each of ``k`` milestones is mapped to one of ``n`` message indices so that every
DAG edge ``(a, b)`` holds ``index[a] <= index[b]`` (milestones may share an
index) and the mean similarity is maximal.

Why: the ToolSandbox reference searches the mapping depth-first over orders,
which took 138 s on one failing 30-message, 6-milestone trajectory. This module
solves the same problem exactly by dynamic programming over (message index,
downward-closed set of placed milestones), which is polynomial in the number
of messages: O(n * L * k) for L <= 2**k downward-closed sets.

Tie-break: mappings whose total similarity is within ``TIE_TOLERANCE`` of the
optimum count as tied, and the lexicographically smallest index tuple
(milestone 0 compared first) wins, so results are deterministic.

Reference milestones: a milestone's similarity may depend on the indices of any
number of its ancestors (its references: the milestones whose snapshots it
compares with, including the predecessors of ToolSandbox's implicit guardrails).
What it needs of a reference is usually not the exact index but the world
version there, which only changes at messages that change the world. The
caller says so through ``key(r, j)``: the class of placing milestone r at j as
far as its referrers see it. The DP then sweeps the messages once over states
(placed downward-closed set, class of each placed milestone that an unplaced
one still refers to), so work grows with the number of classes (world
versions), not with ``n ** r`` as pinning every referenced index would. Each
state keeps its best total and, among totals within ``TIE_TOLERANCE``, the
lexicographically smallest partial index tuple: two partial mappings in the
same state have the same best completion, so comparing them on what they placed
is comparing the whole mappings.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from collections.abc import Mapping as AbcMapping
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["TIE_TOLERANCE", "KeyFn", "Mapping", "SimFn", "SimTable", "best_mapping"]

TIE_TOLERANCE = 1e-12
"""Totals within this absolute distance of the optimum are treated as ties."""

SimFn = Callable[[int, int, tuple[int, ...] | None], float]
KeyFn = Callable[[int, int], Hashable]
SimTable = npt.NDArray[Any] | Sequence[Sequence[float]]
_FloatArray = npt.NDArray[np.float64]
_IntArray = npt.NDArray[np.intp]
_Step = tuple[int, _IntArray, _IntArray]


class Mapping(NamedTuple):
    """Result of :func:`best_mapping`.

    Attributes:
        indices: Chosen message index per milestone (``None`` when ``n == 0``).
        similarities: Similarity per milestone at its chosen index.
        mean: Mean similarity (1.0 when there are no milestones).
    """

    indices: tuple[int | None, ...]
    similarities: tuple[float, ...]
    mean: float


def _graph(k: int, edges: Iterable[tuple[int, int]]) -> tuple[list[int], list[int], list[int]]:
    """Validates the edges; returns direct-predecessor masks, ancestor masks, topo order."""
    preds = [0] * k
    for edge in edges:
        a, b = (int(x) for x in edge)
        if not (0 <= a < k and 0 <= b < k):
            raise ValueError(f"edge ({a}, {b}) references an unknown milestone (k = {k})")
        if a == b:
            raise ValueError(f"milestone dependency edges form a cycle: {a} -> {a}")
        preds[b] |= 1 << a
    order: list[int] = []
    placed = 0
    while len(order) < k:
        ready = [m for m in range(k) if not placed >> m & 1 and preds[m] & ~placed == 0]
        if not ready:  # every unplaced milestone has an unplaced predecessor: walk back
            node = next(m for m in range(k) if not placed >> m & 1)
            walk: list[int] = []
            while node not in walk:
                walk.append(node)
                node = next(p for p in range(k) if preds[node] >> p & 1 and not placed >> p & 1)
            cycle = walk[walk.index(node) :][::-1]
            start = cycle.index(min(cycle))
            cycle = cycle[start:] + cycle[:start]
            names = " -> ".join(str(m) for m in [*cycle, cycle[0]])
            raise ValueError(f"milestone dependency edges form a cycle: {names}")
        order.append(ready[0])
        placed |= 1 << ready[0]
    ancestors = [0] * k
    for m in order:
        for p in range(k):
            if preds[m] >> p & 1:
                ancestors[m] |= ancestors[p] | 1 << p
    return preds, ancestors, order


def _steps(k: int, preds: list[int], order: list[int]) -> tuple[int, list[_Step]]:
    """Enumerates downward-closed sets; per milestone (topo order) the set transitions.

    Returns the number of closed sets L (compact ids: empty set 0, full set L - 1)
    and, per milestone m, the ids of closed sets S that may receive m and of S | {m}.
    """
    masks = np.arange(1 << k, dtype=np.int64)
    closed = np.ones(masks.shape, dtype=bool)
    for m in range(k):
        closed &= ((masks >> m) & 1 == 0) | ((masks & preds[m]) == preds[m])
    ideals = masks[closed]
    compact = np.full(1 << k, -1, dtype=np.intp)
    compact[ideals] = np.arange(ideals.size)
    steps: list[_Step] = []
    for m in order:
        src = ideals[((ideals >> m) & 1 == 0) & ((ideals & preds[m]) == preds[m])]
        steps.append((m, compact[src], compact[src | 1 << m]))
    return int(ideals.size), steps


def _forward_values(tables: _FloatArray, steps: list[_Step], size: int) -> _FloatArray:
    """Best total per table in a batch of shape (C, k, n); -inf marks forbidden cells."""
    f = np.full((tables.shape[0], size), -np.inf)
    f[:, 0] = 0.0
    for i in range(tables.shape[2]):
        for m, src, dst in steps:
            f[:, dst] = np.maximum(f[:, dst], f[:, src] + tables[:, m, i, None])
    result: _FloatArray = f[:, size - 1]
    return result


def _sweeps(table: _FloatArray, steps: list[_Step], size: int) -> tuple[_FloatArray, _FloatArray]:
    """Prefix/suffix DP tables of shape (n, L).

    ``fs[i][S]``: best total placing exactly S at indices <= i.
    ``gs[i][S]``: best total placing the complement of S at indices >= i.
    """
    n = table.shape[1]
    fs, gs = np.empty((n, size)), np.empty((n, size))
    f = np.full(size, -np.inf)
    f[0] = 0.0
    for i in range(n):
        for m, src, dst in steps:
            if table[m, i] > -np.inf:
                f[dst] = np.maximum(f[dst], f[src] + table[m, i])
        fs[i] = f
    g = np.full(size, -np.inf)
    g[size - 1] = 0.0
    for i in range(n - 1, -1, -1):
        for m, src, dst in reversed(steps):
            if table[m, i] > -np.inf:
                g[src] = np.maximum(g[src], g[dst] + table[m, i])
        gs[i] = g
    return fs, gs


def _lexmin(table: _FloatArray, steps: list[_Step], size: int, threshold: float) -> list[int]:
    """Lexicographically smallest mapping whose total reaches ``threshold``.

    Milestone by milestone, takes the smallest index that still admits such a
    mapping and pins it there; pinning only costs a re-sweep when it was not forced.
    """
    table = table.copy()
    by_milestone = {m: (src, dst) for m, src, dst in steps}
    k = table.shape[0]
    fs, gs = _sweeps(table, steps, size)
    chosen: list[int] = []
    for m in range(k):
        src, dst = by_milestone[m]
        best = np.max(fs[:, src] + table[m][:, None] + gs[:, dst], axis=1)
        feasible = np.flatnonzero(best >= threshold)
        index = int(feasible[0]) if feasible.size else int(np.argmax(best))
        chosen.append(index)
        if feasible.size != 1:
            keep = table[m, index]
            table[m] = -np.inf
            table[m, index] = keep
            if m < k - 1:
                fs, gs = _sweeps(table, steps, size)
    return chosen


def _check(value: float, m: int, i: int) -> float:
    """Returns ``value`` as a float, raising ValueError unless it lies in [0, 1]."""
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"similarity of milestone {m} at index {i} is {value}, not in [0, 1]")
    return value


def best_mapping(
    sim: SimTable | SimFn,
    n: int,
    edges: Iterable[tuple[int, int]] = (),
    references: AbcMapping[int, int | Sequence[int]] | None = None,
    k: int | None = None,
    key: KeyFn | None = None,
) -> Mapping:
    """Finds the edge-respecting milestone mapping with maximal mean similarity.

    Args:
        sim: Either a k x n array-like with ``sim[m][i]`` in [0, 1], or a callable
            ``sim(m, i, ref_indices)`` where ``ref_indices`` holds the indices chosen for
            milestone m's references, in the order of ``references[m]`` (``None`` for
            milestones without references).
        n: Number of candidate message indices (0 .. n - 1).
        edges: Pairs ``(a, b)``: milestone a must map to an index <= b's index.
        references: ``{m: [r, ...]}`` (or ``{m: r}``); each r must be an ancestor of m.
            Needs a callable ``sim``.
        k: Number of milestones; required when ``sim`` is callable.
        key: ``key(r, j)``: what a referrer of milestone r sees of r placed at index j.
            ``sim`` must depend on a reference index only through its key. Default: the
            index itself (always exact, slowest).

    Returns:
        The optimal :class:`Mapping`; ties broken as described in the module docstring.

    Raises:
        ValueError: On unknown or cyclic edges, invalid references, shape
            mismatches or similarities outside [0, 1].
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    refs = {
        m: (r,) if isinstance(r, int) else tuple(dict.fromkeys(r))
        for m, r in (references or {}).items()
    }
    refs = {m: rs for m, rs in refs.items() if rs}
    if callable(sim):
        if k is None:
            raise ValueError("k must be given when sim is a callable")
        fn = sim
    else:
        if refs:
            raise ValueError("references require sim to be a callable sim(m, i, ref_indices)")
        arr = np.asarray(sim, dtype=np.float64)
        if arr.size == 0 and arr.ndim == 1:
            arr = arr.reshape(0, n)
        if arr.ndim != 2 or arr.shape[1] != n or (k is not None and arr.shape[0] != k):
            want = f"({'k' if k is None else k}, {n})"
            raise ValueError(f"sim table has shape {arr.shape}, expected {want}")
        k = int(arr.shape[0])
        bad = np.argwhere(~((arr >= 0.0) & (arr <= 1.0)))
        if bad.size:
            m, i = (int(x) for x in bad[0])
            _check(float(arr[m, i]), m, i)
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    preds, ancestors, order = _graph(k, edges)
    for m, rs in refs.items():
        for r in rs:
            if not (0 <= m < k and 0 <= r < k):
                raise ValueError(f"reference {m} -> {r} names an unknown milestone (k = {k})")
            if not ancestors[m] >> r & 1:
                raise ValueError(f"reference milestone {r} of milestone {m} is not its ancestor")
    if k == 0:
        return Mapping((), (), 1.0)
    if n == 0:
        return Mapping((None,) * k, (0.0,) * k, 0.0)
    if not callable(sim):
        base = arr
    elif not refs:
        base = np.array([[_check(fn(m, i, None), m, i) for i in range(n)] for m in range(k)])
    else:
        chosen = _sweep_references(fn, n, k, preds, order, refs, key or _exact)
        sims = tuple(
            _check(
                fn(m, chosen[m], tuple(chosen[r] for r in refs[m]) if m in refs else None),
                m,
                chosen[m],
            )
            for m in range(k)
        )
        return Mapping(tuple(chosen), sims, math.fsum(sims) / k)
    size, steps = _steps(k, preds, order)
    best_total = float(_forward_values(base[None], steps, size)[0])
    chosen = _lexmin(base, steps, size, best_total - TIE_TOLERANCE)
    sims = tuple(float(base[m, chosen[m]]) for m in range(k))
    return Mapping(tuple(chosen), sims, math.fsum(sims) / k)


def _exact(r: int, j: int) -> Hashable:
    return j


_State = tuple[int, tuple[Hashable, ...]]
_Partial = tuple[float, tuple[int, ...]]


def _better(a: _Partial, b: _Partial) -> bool:
    """Whether partial mapping a beats b: a higher total, or a tie and a smaller tuple."""
    if a[0] > b[0] + TIE_TOLERANCE:
        return True
    return a[0] >= b[0] - TIE_TOLERANCE and a[1] < b[1]


def _sweep_references(
    fn: SimFn,
    n: int,
    k: int,
    preds: list[int],
    order: list[int],
    refs: dict[int, tuple[int, ...]],
    key: KeyFn,
) -> list[int]:
    """The best mapping when similarities depend on references (module docstring).

    A state is (placed set, per referenced milestone: the key of its index while an
    unplaced milestone still refers to it, else None); each state keeps its best partial
    (total, index tuple). States are grouped by placed set, so the DAG test runs once per set;
    a candidate's index tuple is built only when its total can compete.
    """
    referenced = sorted({r for rs in refs.values() for r in rs})
    slot = {r: s for s, r in enumerate(referenced)}
    referrers = {r: sum(1 << m for m, rs in refs.items() if r in rs) for r in referenced}
    ref_slots = {m: tuple(slot[r] for r in rs) for m, rs in refs.items()}
    moves: dict[tuple[int, int], tuple[int, int, tuple[int, ...]]] = {}

    def move(placed: int, m: int) -> tuple[int, int, tuple[int, ...]]:
        """Placing m into `placed`: new set, slot to record m's key in (-1: none), slots freed."""
        now = placed | 1 << m
        record = slot[m] if m in slot and referrers[m] & ~now else -1
        freed = tuple(slot[r] for r in refs.get(m, ()) if not referrers[r] & ~now)
        moves[(placed, m)] = (now, record, freed)
        return now, record, freed

    values: dict[tuple[int, int, tuple[Hashable, ...]], float] = {}
    example: dict[tuple[int, Hashable], int] = {}
    states: dict[int, dict[tuple[Hashable, ...], _Partial]] = {
        0: {(None,) * len(referenced): (0.0, (-1,) * k)}
    }
    for i in range(n):
        here = [key(r, i) for r in referenced]
        for r, cls in zip(referenced, here, strict=True):
            example.setdefault((r, cls), i)
        for m in order:
            bit, need, slots = 1 << m, preds[m], ref_slots.get(m, ())
            for placed in [p for p in states if not p & bit and p & need == need]:
                now, record, freed = moves.get((placed, m)) or move(placed, m)
                target = states.setdefault(now, {})
                for classes, (total, indices) in list(states[placed].items()):
                    seen = tuple(classes[s] for s in slots)
                    value = values.get((m, i, seen))
                    if value is None:
                        at = tuple(
                            example[(r, c)] for r, c in zip(refs.get(m, ()), seen, strict=True)
                        )
                        value = _check(fn(m, i, at if slots else None), m, i)
                        values[(m, i, seen)] = value
                    score = total + value
                    if record >= 0 or freed:
                        after = list(classes)
                        if record >= 0:
                            after[record] = here[record]
                        for s in freed:
                            after[s] = None
                        state = tuple(after)
                    else:
                        state = classes
                    kept = target.get(state)
                    if kept is not None and score < kept[0] - TIE_TOLERANCE:
                        continue
                    candidate = (score, (*indices[:m], i, *indices[m + 1 :]))
                    if kept is None or _better(candidate, kept):
                        target[state] = candidate
    final = list(states.get((1 << k) - 1, {}).values())
    best = final[0]
    for partial in final[1:]:
        if _better(partial, best):
            best = partial
    return list(best[1])
