"""Paired comparison of two runs on the scenarios both played: difference, interval, p-value.

Two assistants on the same scenarios are compared scenario by scenario, which removes the
scenarios' own difficulty from the noise: the paired analysis sees a difference that two
separate intervals would hide.

- **Difference**: the metric of run A minus the metric of run B, each computed as its
  aggregator would over the shared scenarios (a ratio of sums, `_uncertainty.Ratio`).
- **Interval**: a paired bootstrap: one set of resampled scenarios for both runs, the
  difference recomputed on each; the interval as in `_uncertainty` (BCa by default).
- **p-value**: a paired permutation test of "A and B are exchangeable within each scenario":
  each scenario's A and B parts are swapped or not, the difference recomputed. With at most
  `resamples` swap patterns (2^n) every pattern is enumerated (exact test); otherwise
  `resamples` random patterns are drawn with the seed and the p-value is (hits + 1) /
  (resamples + 1), which never understates it. Two-sided as in `scipy.stats.permutation_test`:
  twice the smaller tail, at most 1, with a relative tolerance so that a pattern equal to the
  observed difference in exact arithmetic counts as a hit.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field

from toolplay.stats._bootstrap import (
    FloatArray,
    Ratio,
    UncertaintySettings,
    interval_from_replicates,
    ratio_jackknife,
    ratio_replicates,
    ratio_value,
    resample_chunks,
    seeded_generator,
)

__all__ = ["PairedDifference", "paired_difference", "sign_flip_test"]

TestKind = Literal["exact", "monte_carlo"]
BoolArray = NDArray[np.bool_]
Parts = tuple[FloatArray, FloatArray]
_TOLERANCE = 100 * np.finfo(np.float64).eps
_CHUNK_CELLS = 1 << 20


class PairedDifference(BaseModel):
    """Run A's metric minus run B's over their shared scenarios, with interval and p-value."""

    model_config = ConfigDict(extra="forbid")

    metric: str
    n: int = Field(description="Shared scenarios.")
    left: float | None = Field(description="Run A's metric over the shared scenarios.")
    right: float | None = Field(description="Run B's metric over the shared scenarios.")
    difference: float | None = Field(description="left - right (None where undefined).")
    low: float | None = Field(description="Paired-bootstrap interval of the difference.")
    high: float | None
    p_value: float | None = Field(description="Two-sided paired permutation test.")
    test: TestKind | None = Field(description="Exact enumeration or seeded Monte Carlo.")
    permutations: int = Field(description="Swap patterns the p-value counts.")
    p_holm: float | None = Field(
        default=None, description="Holm-adjusted p-value within its table (when set)."
    )


def _pooled(ratio: Ratio) -> Parts:
    if ratio.per_column:
        raise ValueError("a paired test needs pooled ratios (metric_ratios(average_trials=True))")
    return ratio.numerator.sum(axis=1), ratio.denominator.sum(axis=1)


def _value(num: FloatArray, den: FloatArray, empty: float | None) -> FloatArray:
    """Ratio per row of summed parts, NaN (or `empty`) where the denominator is 0."""
    fill = np.nan if empty is None else empty
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), fill)


def _swapped(swap: BoolArray, a: Parts, b: Parts, empty: float | None) -> FloatArray:
    """Difference of the two runs' metrics under each row of swap patterns."""
    left_num = np.where(swap, b[0], a[0]).sum(axis=1)
    left_den = np.where(swap, b[1], a[1]).sum(axis=1)
    right_num = np.where(swap, a[0], b[0]).sum(axis=1)
    right_den = np.where(swap, a[1], b[1]).sum(axis=1)
    left, right = _value(left_num, left_den, empty), _value(right_num, right_den, empty)
    return np.asarray(left - right, dtype=np.float64)


def sign_flip_test(
    a: Ratio, b: Ratio, *, permutations: int, rng: np.random.Generator
) -> tuple[float | None, TestKind, int]:
    """Two-sided paired permutation test of `ratio(a) - ratio(b)` (see the module docstring).

    Returns:
        The p-value (None when the difference is undefined), exact or Monte Carlo, and the
        number of swap patterns counted.
    """
    pa, pb = _pooled(a), _pooled(b)
    n = pa[0].shape[0]
    kind: TestKind = "exact" if n < 63 and 2**n <= permutations else "monte_carlo"
    count = 2**n if kind == "exact" else permutations
    observed = _swapped(np.zeros((1, n), dtype=bool), pa, pb, a.empty)[0]
    if np.isnan(observed):
        return None, kind, count
    gamma = abs(observed) * _TOLERANCE
    rows = max(1, _CHUNK_CELLS // max(n, 1))
    low = high = 0
    for start in range(0, count, rows):
        size = min(rows, count - start)
        if kind == "exact":
            codes = np.arange(start, start + size, dtype=np.int64)[:, None]
            swap = ((codes >> np.arange(n, dtype=np.int64)) & 1).astype(bool)
        else:
            swap = rng.random((size, n)) < 0.5
        null = _swapped(swap, pa, pb, a.empty)
        null = null[~np.isnan(null)]
        low += int(np.count_nonzero(null <= observed + gamma))
        high += int(np.count_nonzero(null >= observed - gamma))
    extra = 0 if kind == "exact" else 1
    p = 2.0 * min(low + extra, high + extra) / (count + extra)
    return min(1.0, p), kind, count


def paired_difference(
    metric: str, a: Ratio, b: Ratio, settings: UncertaintySettings, key: str
) -> PairedDifference:
    """Compare one metric of two runs over the same scenarios (rows of `a` and `b` aligned).

    Args:
        metric: The metric's name (recorded).
        a: Run A's ratio, pooled over trials (`metric_ratios(..., average_trials=True)`).
        b: Run B's ratio over the same scenarios in the same order.
        settings: Level, resamples (also the random permutations), seed, interval method.
        key: Names the comparison (e.g. "runA|runB|similarity"); fixes the random draws.

    Returns:
        The difference with its paired-bootstrap interval and permutation p-value.
    """
    if a.clusters != b.clusters:
        raise ValueError(f"{metric}: the two runs' ratios cover different scenarios")
    left, right = ratio_value(a), ratio_value(b)
    difference = None if left is None or right is None else left - right
    rng = seeded_generator(settings.seed, key)
    replicates: list[FloatArray] = []
    if a.clusters >= 2:
        for index in resample_chunks(a.clusters, settings.resamples, rng):
            replicates.append(ratio_replicates(a, index) - ratio_replicates(b, index))
    interval = interval_from_replicates(
        difference,
        np.concatenate(replicates) if replicates else np.empty(0),
        ratio_jackknife(a) - ratio_jackknife(b),
        level=settings.level,
        method=settings.method,
    )
    p_value, kind, count = (None, None, 0)
    if a.clusters >= 1:
        p_value, kind, count = sign_flip_test(a, b, permutations=settings.resamples, rng=rng)
    return PairedDifference(
        metric=metric,
        n=a.clusters,
        left=left,
        right=right,
        difference=difference,
        low=interval.low,
        high=interval.high,
        p_value=p_value,
        test=kind,
        permutations=count,
    )
