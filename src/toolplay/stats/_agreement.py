"""Agreement between two ways of scoring the same scenarios (AutoDE §5).

Pearson and Spearman correlations over per-scenario scores, and ICC(3,1): the intraclass
correlation of a two-way mixed model, consistency definition, single rater (Shrout & Fleiss
1979, case 3). ICC(3,1) asks whether the raters *order and space* the subjects alike; a rater
that is uniformly stricter by a constant does not lower it.

A statistic that is undefined for the data (fewer than two subjects, a constant column) is
None, never 0.0 or NaN: "not defined" is its own answer. For two raters (`agreement`,
`paired_icc`) ICC(3,1) is None whenever Pearson is: with one side constant the ANOVA formula
still gives a number (0, or -0.0 by rounding), but it says nothing about agreement.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Agreement", "agreement", "icc_3_1", "paired_icc", "pearson", "spearman"]


def _pair(x: Sequence[float], y: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    if len(x) != len(y):
        raise ValueError(f"score lists differ in length: {len(x)} vs {len(y)}")
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise ValueError("scores must be finite numbers")
    return a, b


def pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Pearson's product-moment correlation.

    Args:
        x: Scores of the first method, one per subject.
        y: Scores of the second method, same subjects in the same order.

    Returns:
        The correlation in [-1, 1], or None with fewer than two subjects or a constant list.

    Raises:
        ValueError: The lists differ in length or hold a non-finite value.
    """
    a, b = _pair(x, y)
    if len(a) < 2 or np.all(a == a[0]) or np.all(b == b[0]):
        return None  # exact test: a constant column's mean can differ from it by rounding
    da, db = a - a.mean(), b - b.mean()
    denom = math.sqrt(float(np.dot(da, da)) * float(np.dot(db, db)))
    if denom == 0.0:
        return None
    return float(np.clip(float(np.dot(da, db)) / denom, -1.0, 1.0))


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rank correlation: Pearson over ranks, ties sharing their mean rank.

    Args:
        x: Scores of the first method, one per subject.
        y: Scores of the second method, same subjects in the same order.

    Returns:
        The correlation in [-1, 1], or None when undefined (see `pearson`).

    Raises:
        ValueError: The lists differ in length or hold a non-finite value.
    """
    from scipy.stats import rankdata  # scipy.stats costs ~1 s to import; only compare needs it

    a, b = _pair(x, y)
    return pearson(list(rankdata(a)), list(rankdata(b)))


def icc_3_1(ratings: Sequence[Sequence[float]]) -> float | None:
    """ICC(3,1): two-way mixed effects, consistency, single rater.

    With n subjects (rows) and k raters (columns), from the two-way ANOVA without replication:
    ``(MS_rows - MS_error) / (MS_rows + (k - 1) * MS_error)``.

    Args:
        ratings: One row per subject, one column per rater; every row equally long.

    Returns:
        The coefficient (at most 1, may be negative), or None when n < 2, k < 2 or the
        denominator is zero (every rating identical up to a per-rater constant and no
        spread between subjects).

    Raises:
        ValueError: Rows of unequal length or a non-finite rating.
    """
    rows = [list(r) for r in ratings]
    if any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("every subject needs one rating per rater")
    if len(rows) < 2 or len(rows[0]) < 2:
        return None
    data = np.asarray(rows, dtype=float)
    if not np.all(np.isfinite(data)):
        raise ValueError("ratings must be finite numbers")
    n, k = data.shape
    grand = data.mean()
    ss_total = float(((data - grand) ** 2).sum())
    ss_rows = k * float(((data.mean(axis=1) - grand) ** 2).sum())
    ss_cols = n * float(((data.mean(axis=0) - grand) ** 2).sum())
    ss_error = max(ss_total - ss_rows - ss_cols, 0.0)
    ms_rows = ss_rows / (n - 1)
    ms_error = ss_error / ((n - 1) * (k - 1))
    denom = ms_rows + (k - 1) * ms_error
    if denom <= 1e-15 * max(ss_total, 1.0):
        return None
    return float((ms_rows - ms_error) / denom)


def paired_icc(x: Sequence[float], y: Sequence[float]) -> float | None:
    """ICC(3,1) of two raters; None where Pearson is undefined (see the module docstring)."""
    if pearson(x, y) is None:
        return None
    return icc_3_1(list(zip(x, y, strict=True)))


@dataclass(frozen=True)
class Agreement:
    """Agreement of two score lists over the same `n` subjects."""

    n: int
    pearson: float | None
    spearman: float | None
    icc_3_1: float | None


def agreement(x: Sequence[float], y: Sequence[float]) -> Agreement:
    """Pearson, Spearman and ICC(3,1) of two paired score lists.

    Args:
        x: Scores of the first method, one per subject.
        y: Scores of the second method, same subjects in the same order.

    Returns:
        The three statistics (each None where undefined) and the number of subjects.

    Raises:
        ValueError: The lists differ in length or hold a non-finite value.
    """
    a, b = _pair(x, y)
    return Agreement(
        n=len(a),
        pearson=pearson(x, y),
        spearman=spearman(x, y),
        icc_3_1=paired_icc(a.tolist(), b.tolist()),
    )
