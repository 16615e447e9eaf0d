"""Item analysis: how well one scenario (an item) separates runs, and how steady its trials are.

Classical test theory treats each scenario of a suite as an item and each run as an examinee:

- **Discrimination** is the item-rest correlation: Pearson's r between the runs' scores on the
  item and their mean score on every *other* item. The item is left out of the total it is
  compared with, or its own noise would correlate with itself and flatter every item (the
  "corrected" item-total correlation). A good item is passed by strong runs and failed by weak
  ones (r near 1); an item whose r is near 0 says nothing about strength; a negative r means
  strong runs do worse on it, the classic sign of a mis-keyed item (a wrong gold answer).
- **Its interval** is Fisher's z interval, tanh(atanh(r) ± z / sqrt(n - 3)), defined for
  n >= 4 runs. With few runs it is wide, as it should be: four runs cannot establish an item's
  discrimination, and the interval says so instead of hiding it. r = ±1 exactly (which two
  or three runs always give) has no interval.
- **Trial disagreement** of one run on one item is the mean absolute difference of its scores
  over every pair of trials (Gini's mean difference): 0 when every trial scored alike, 1 when
  half the trials scored 1 and half 0 with two trials; for pass/fail scores it is the share
  of trial pairs whose outcomes differ.

Undefined values are None, never 0 or NaN (as in `_agreement`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from statistics import NormalDist

from toolplay.stats._agreement import pearson

__all__ = ["Discrimination", "correlation_interval", "discrimination", "trial_disagreement"]


@dataclass(frozen=True)
class Discrimination:
    """The item-rest correlation of one item over `n` runs, with its interval."""

    n: int
    r: float | None
    low: float | None
    high: float | None


def correlation_interval(r: float, n: int, level: float) -> tuple[float, float] | None:
    """Fisher's z interval of a correlation `r` over `n` pairs at confidence `level`.

    Returns:
        (low, high), or None when n < 4 or |r| = 1 (no interval is defined).

    Raises:
        ValueError: `level` is not in (0, 1) or `r` is outside [-1, 1].
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level {level} is not between 0 and 1")
    if not -1.0 <= r <= 1.0:
        raise ValueError(f"correlation {r} is outside [-1, 1]")
    if n < 4 or abs(r) >= 1.0:
        return None
    z = math.atanh(r)
    half = NormalDist().inv_cdf(0.5 + level / 2.0) / math.sqrt(n - 3)
    return math.tanh(z - half), math.tanh(z + half)


def discrimination(item: Sequence[float], rest: Sequence[float], level: float) -> Discrimination:
    """The item-rest correlation of one item (see the module docstring).

    Args:
        item: Each run's score on the item.
        rest: Each run's mean score on every other item, in the same order.
        level: Confidence level of the interval.

    Returns:
        r and its interval; r is None with fewer than two runs or when either list is
        constant (every run scored the item, or the rest, alike).

    Raises:
        ValueError: The lists differ in length or hold a non-finite value.
    """
    r = pearson(item, rest)
    bounds = None if r is None else correlation_interval(r, len(item), level)
    low, high = bounds if bounds is not None else (None, None)
    return Discrimination(n=len(item), r=r, low=low, high=high)


def trial_disagreement(scores: Sequence[float]) -> float | None:
    """Mean absolute difference of the scores over every pair of trials (None: < 2 trials).

    Raises:
        ValueError: A score is not a finite number.
    """
    if any(not math.isfinite(s) for s in scores):
        raise ValueError("scores must be finite numbers")
    if len(scores) < 2:
        return None
    pairs = list(combinations(scores, 2))
    return math.fsum(abs(a - b) for a, b in pairs) / len(pairs)
