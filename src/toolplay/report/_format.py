"""How every report writes a number: the one formatting of metric values."""

from __future__ import annotations

from typing import Any

from toolplay.scoring import TrialSpread
from toolplay.stats import Agreement, SystemAgreement

__all__ = ["fmt", "plural", "stat_cells", "system_cells"]


def fmt(value: Any) -> str:
    """Format one metric value: 3 decimals for fractions, thousands for counts, '-' for none."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3f}"
    if isinstance(value, TrialSpread):
        if value.std is None:  # one trial: a mean, no spread to show
            return f"{fmt(value.mean)} (1 trial)"
        return f"{fmt(value.mean)} ± {fmt(value.std)}"
    return str(value)


def plural(count: int, noun: str) -> str:
    """`1 scenario`, `2 scenarios`, `1,104 scenarios` (nouns that take an `s`)."""
    return f"{fmt(count)} {noun}{'' if count == 1 else 's'}"


def system_cells(stats: SystemAgreement) -> dict[str, str]:
    """The system-level numbers formatted for a table (`-` where undefined)."""
    return {"n": str(stats.n), "pearson": fmt(stats.pearson), "icc": fmt(stats.icc_3_1)}


def stat_cells(stats: Agreement) -> dict[str, str]:
    """The agreement numbers formatted for a table (`-` where undefined)."""
    return {
        "n": str(stats.n),
        "pearson": fmt(stats.pearson),
        "spearman": fmt(stats.spearman),
        "icc": fmt(stats.icc_3_1),
    }
