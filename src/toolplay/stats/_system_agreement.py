"""System-level agreement of two evaluation methods (AutoDE's Table 2).

Each assistant is one point: its score under method A (e.g. human evaluation) and under
method B (e.g. dynamic evaluation with a simulated user), each the run's headline metric
(AutoDE: the mean over trials of the macro slot F1). Pearson's r and ICC(3,1) (two-way mixed,
consistency, single rater) are computed over those points, exactly as the paper's Table 2 does;
with fewer than two assistants, or a method that scores every assistant alike, a statistic is
undefined (None).

This asks whether a method *ranks and spaces assistants* like the other, which is what a
benchmark is for. Per-dialogue agreement (`_agreement.agreement` over scenarios) asks something
else (does the method judge each dialogue alike) and is reported beside it, labelled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolplay.stats._agreement import paired_icc, pearson

__all__ = ["SystemAgreement", "system_agreement"]


@dataclass(frozen=True)
class SystemAgreement:
    """Agreement of two methods over the assistants both evaluated, one point each."""

    left: str
    right: str
    points: tuple[tuple[str, float, float], ...]
    """(assistant, score under `left`, score under `right`), sorted by assistant."""
    pearson: float | None
    icc_3_1: float | None

    @property
    def n(self) -> int:
        """The number of assistants (points)."""
        return len(self.points)


def system_agreement(
    left: str, right: str, a: Mapping[str, float], b: Mapping[str, float]
) -> SystemAgreement:
    """Pearson's r and ICC(3,1) over the assistants scored by both methods.

    Args:
        left: Name of the first method (e.g. `human`).
        right: Name of the second method (e.g. `dynamic`).
        a: Each assistant's score under `left`.
        b: Each assistant's score under `right`.

    Returns:
        The points used and the two statistics (None where undefined).

    Raises:
        ValueError: A score is not a finite number.
    """
    common = sorted(set(a) & set(b))
    x = [float(a[s]) for s in common]
    y = [float(b[s]) for s in common]
    return SystemAgreement(
        left=left,
        right=right,
        points=tuple(zip(common, x, y, strict=True)),
        pearson=pearson(x, y),
        icc_3_1=paired_icc(x, y),
    )
