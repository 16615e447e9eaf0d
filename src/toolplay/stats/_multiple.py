"""Many comparisons at once: Holm's correction, and a ranking that claims only what it shows.

Comparing several runs pairwise runs many tests, and some will look significant by chance.
Holm's step-down procedure keeps the chance of any false claim in the family at the level
(like Bonferroni) under any dependence between the tests, and rejects at least as much as
Bonferroni does. The ranking then puts a run above another only where that corrected test
says so: a run's rank is 1 + the number of runs significantly better than it, so runs whose
differences are not significant share ranks (the convention of Chatbot Arena's leaderboard).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["RankedRun", "holm", "significance_ranking"]


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm-adjusted p-values, in the input order (None stays None and is not counted).

    The i-th smallest of m p-values becomes max over j <= i of min(1, (m - j + 1) p_(j)).
    """
    known = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(known)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class RankedRun:
    """A run's place: 1 + how many runs are significantly better (ties share a rank)."""

    label: str
    estimate: float | None
    rank: int
    better_than: tuple[str, ...]
    """Runs this one is significantly better than."""


def significance_ranking(
    estimates: dict[str, float | None],
    differences: Sequence[tuple[str, str, float | None, float | None]],
    *,
    alpha: float,
    higher_is_better: bool = True,
) -> list[RankedRun]:
    """Rank runs, counting only significant differences.

    Args:
        estimates: Each run's metric (the order of the result follows it, best first).
        differences: `(a, b, a - b, adjusted p-value)` for each compared pair.
        alpha: Significance level for the adjusted p-values (1 - confidence level).
        higher_is_better: False for metrics where lower is better (turn count, error rate).

    Returns:
        The runs ordered by rank, then by estimate, then by label.
    """
    beats: dict[str, set[str]] = {label: set() for label in estimates}
    for a, b, difference, p in differences:
        if difference is None or p is None or p >= alpha or difference == 0:
            continue
        a_better = (difference > 0) == higher_is_better
        winner, loser = (a, b) if a_better else (b, a)
        beats[winner].add(loser)
    ranked = [
        RankedRun(
            label=label,
            estimate=estimates[label],
            rank=1 + sum(label in beaten for beaten in beats.values()),
            better_than=tuple(sorted(beats[label])),
        )
        for label in estimates
    ]

    def order(run: RankedRun) -> tuple[int, bool, float, str]:
        value = run.estimate or 0.0
        return run.rank, run.estimate is None, -value if higher_is_better else value, run.label

    return sorted(ranked, key=order)
