"""Significance results as text cells, shared by the terminal and the HTML comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolplay.analysis import Significance
from toolplay.report._format import fmt
from toolplay.stats import PairedDifference

__all__ = [
    "difference_cells",
    "listed_ids",
    "p_text",
    "significance_context",
    "significance_note",
]

_LISTED = 8
"""Scenario ids a terminal line names before summing up the rest."""


def p_text(p: float | None) -> str:
    """A p-value: three decimals, `<0.001` below that, `-` where undefined."""
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _signed(value: float | None) -> str:
    if value is None:
        return "-"
    text = fmt(abs(value))
    if text.strip("0.,") == "":
        return text  # rounds to zero: no sign
    return f"-{text}" if value < 0 else f"+{text}"


def difference_cells(difference: PairedDifference) -> dict[str, str]:
    """n, both sides, the signed difference, its interval, p and Holm-adjusted p."""
    ci = "-"
    if difference.low is not None and difference.high is not None:
        ci = f"[{_signed(difference.low)}, {_signed(difference.high)}]"
    return {
        "n": fmt(difference.n),
        "left": fmt(difference.left),
        "right": fmt(difference.right),
        "difference": _signed(difference.difference),
        "ci": ci,
        "p": p_text(difference.p_value),
        "p_holm": p_text(difference.p_holm),
        "test": "-" if difference.test is None else difference.test.replace("_", " "),
    }


def listed_ids(ids: Sequence[str]) -> str:
    """The first few ids, then how many more."""
    shown = ", ".join(ids[:_LISTED])
    return shown + (f" … and {len(ids) - _LISTED} more" if len(ids) > _LISTED else "")


def significance_note(significance: Significance) -> str:
    """How the numbers were made and how to read them, in one line."""
    s = significance.settings
    kind = "BCa" if s.method == "bca" else "percentile"
    return (
        f"a - b over the scenarios both scored (each averaged over its trials); "
        f"{s.level * 100:g}% {kind} paired-bootstrap interval and two-sided paired "
        f"permutation test ({s.resamples:,} resamples/permutations, exact when 2^n is fewer, "
        f"seed {s.seed}); Holm's correction within each table. Read a difference as real "
        f"when p (Holm) < {1 - s.level:.2g}."
    )


def significance_context(significance: Significance | None) -> dict[str, Any] | None:
    """Plain data for the comparison page's significance sections (None: nothing to show)."""
    if significance is None:
        return None
    context: dict[str, Any] = {
        "header": f"{significance.settings.level * 100:g}% CI",
        "note": significance_note(significance),
        "pair": None,
        "ranking": None,
    }
    pair = significance.pair
    if pair is not None:
        context["pair"] = {
            "left": pair.left,
            "right": pair.right,
            "shared": pair.shared,
            "metrics": [(d.metric, difference_cells(d)) for d in pair.metrics],
            "category_metric": pair.category_metric,
            "categories": [(c, difference_cells(d)) for c, d in pair.categories],
            "only": [
                {"label": label, "ids": list(ids)}
                for label, ids in ((pair.left, pair.only_left), (pair.right, pair.only_right))
                if ids
            ],
        }
    ranking = significance.ranking
    if ranking is not None:
        context["ranking"] = {
            "metric": ranking.metric,
            "scenarios": ranking.scenarios,
            "left_out": list(ranking.left_out),
            "pairs": [(a, b, difference_cells(d)) for a, b, d in ranking.pairs],
            "runs": [
                {
                    "rank": r.rank,
                    "label": r.label,
                    "value": fmt(r.estimate),
                    "better_than": ", ".join(r.better_than) or "-",
                }
                for r in ranking.ranking
            ],
        }
    return context
