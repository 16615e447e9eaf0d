"""pass^k (τ-bench): the chance that k trials of a scenario, drawn without replacement, all succeed.

C(c, k) / C(n, k) with c successes in n trials, averaged over scenarios: pass^1 is the plain
success rate, and pass^k falls as k grows unless the assistant is *reliably* right.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from statistics import fmean


def pass_hat_k(outcomes: Sequence[Sequence[bool]], k: int) -> float | None:
    """Mean over scenarios of C(c, k) / C(n, k); scenarios with fewer than k trials are skipped.

    Args:
        outcomes: Per scenario, the success of each scored trial.
        k: Trials that must all succeed.

    Returns:
        The estimate, or None when no scenario has k trials.
    """
    values = [
        comb(sum(trials), k) / comb(len(trials), k) for trials in outcomes if len(trials) >= k
    ]
    return fmean(values) if values else None
