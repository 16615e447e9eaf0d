"""Kendall's tau-b: do two rankings of the same items order them alike?

Used to ask whether the ranking of assistants changes when the simulated user changes
(`analysis`): +1 the same order, -1 the reverse, 0 unrelated. Tau-b corrects for ties (two
assistants with the same score). Like the other agreement statistics it is None, never 0 or
NaN, where it is undefined: fewer than two items, or one side ranking every item alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["kendall_tau"]


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b of two score lists over the same items (same order).

    Raises:
        ValueError: The lists differ in length or hold a non-finite value.
    """
    if len(x) != len(y):
        raise ValueError(f"score lists differ in length: {len(x)} vs {len(y)}")
    if not all(math.isfinite(v) for v in (*x, *y)):
        raise ValueError("scores must be finite numbers")
    concordant = discordant = ties_x = ties_y = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    pairs_x = concordant + discordant + ties_x
    pairs_y = concordant + discordant + ties_y
    if pairs_x == 0 or pairs_y == 0:
        return None
    return (concordant - discordant) / math.sqrt(pairs_x * pairs_y)
