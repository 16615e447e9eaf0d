"""Column, row and row-set similarities for milestone scoring (ToolSandbox §4).

A target value compiles to a `ValueMatcher`: a function from an observed value to [0, 1].
A row's similarity is the geometric mean over the target's columns; a set of target rows is
matched one-to-one to observed rows by the Hungarian method on -log similarity, which
maximises the geometric mean of the matched pairs (scipy's `linear_sum_assignment`).

Exact match is strict about kinds (`true` is not `1`) but not about number types (`3` is
`3.0`). Phone numbers are compared as stored, like every other value: a number written in
another format is another value (the reference's rule; canonicalisation is the assistant's job).
`contains` is case-sensitive unless the target says `ignore_case: true`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from toolplay.scenarios import similarity_spec

ValueMatcher = Callable[[Any], float]
"""Similarity of an observed value to a compiled target, in [0, 1]."""

ROUGE_COLUMNS = {
    ("messages", "content"),
    ("reminders", "content"),
    ("contacts", "relationship"),
}
"""Columns compared by ROUGE-L by default, as in the reference; all others exactly."""

_ZERO_COST = 1e6
"""Assignment cost of a zero-similarity pair: larger than any sum of real -log costs."""


@lru_cache(maxsize=1)
def _scorer() -> Any:
    # imported here: rouge-score pulls in nltk, which costs every CLI command ~0.5 s
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


@lru_cache(maxsize=65536)
def rouge_l(target: str, text: str) -> float:
    """ROUGE-L F-measure of `text` against `target` (1.0 when both have no words)."""
    tokenizer = _scorer()._tokenizer
    if not tokenizer.tokenize(target) and not tokenizer.tokenize(text):
        return 1.0
    return float(_scorer().score(target, text)["rougeL"].fmeasure)


def exact_equal(a: Any, b: Any) -> bool:
    """Equality that keeps booleans apart from numbers and recurses into lists and dicts."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(exact_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(exact_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def compile_target(value: Any, default: str = "exact", name: str = "") -> ValueMatcher:
    """The matcher for a target value (literal or similarity spec).

    Args:
        value: A literal, or a mapping naming one similarity (see `similarity_spec`).
        default: Similarity for literals: "exact" or "rouge".
        name: Column or argument name (kept for callers; every value compares as stored).
    """
    spec = similarity_spec(value)
    if spec is None:
        spec = (
            {"rouge": value} if default == "rouge" and isinstance(value, str) else {"exact": value}
        )
    if "exact" in spec or "one_of" in spec:
        options = [spec["exact"]] if "exact" in spec else list(spec["one_of"])

        def exact(observed: Any) -> float:
            return float(any(exact_equal(observed, option) for option in options))

        return exact
    if "rouge" in spec:
        target = str(spec["rouge"])
        return lambda observed: rouge_l(target, _text(observed))
    if "contains" in spec:
        if spec.get("ignore_case", False):
            folded = str(spec["contains"]).casefold()
            return lambda observed: float(folded in _text(observed).casefold())
        needle = str(spec["contains"])
        return lambda observed: float(needle in _text(observed))
    centre, tolerance = float(spec["close"]), float(spec.get("tolerance", 1e-6))

    def close(observed: Any) -> float:
        if isinstance(observed, bool) or not isinstance(observed, int | float):
            return 0.0
        return float(abs(observed - centre) <= tolerance)

    return close


def geometric_mean(values: Sequence[float]) -> float:
    """Geometric mean of similarities (1.0 for none, 0.0 as soon as one is 0)."""
    if not values:
        return 1.0
    if min(values) <= 0.0:
        return 0.0
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


RowTarget = Mapping[str, ValueMatcher]
"""A compiled target row: column -> matcher."""


def row_similarity(row: Mapping[str, Any], target: RowTarget) -> float:
    """Geometric mean over the target's columns of the row's column similarities."""
    return geometric_mean([matcher(row.get(column)) for column, matcher in target.items()])


def rows_similarity(
    rows: Sequence[Mapping[str, Any]], targets: Sequence[RowTarget], *, exact_count: bool
) -> float:
    """Best one-to-one assignment of target rows to rows; geometric mean of matched pairs.

    Args:
        rows: Observed rows.
        targets: Compiled target rows.
        exact_count: True ("equals"): the numbers of rows must be equal; False ("contains"):
            there must be at least as many rows as targets.
    """
    if (exact_count and len(rows) != len(targets)) or len(rows) < len(targets):
        return 0.0
    if not targets:
        return 1.0
    import numpy as np  # noqa: PLC0415 (start-up time: numpy only once something is scored)

    sims = np.array([[row_similarity(row, target) for row in rows] for target in targets])
    with np.errstate(divide="ignore"):
        cost = np.where(sims > 0.0, -np.log(np.where(sims > 0.0, sims, 1.0)), _ZERO_COST)
    from scipy.optimize import linear_sum_assignment  # noqa: PLC0415 (0.4 s import: startup)

    picked_targets, picked_rows = linear_sum_assignment(cost)
    matched = sims[picked_targets, picked_rows]
    return geometric_mean([float(v) for v in matched])
