"""The HTML form of `toolplay compare`: tables, agreement and one scatter plot per pair.

A static page (no script at all): everything is rendered here and escaped by the template.
"""

from __future__ import annotations

from pathlib import Path

from toolplay.analysis import Comparison, spread
from toolplay.report._charts import Point, scatter_plot
from toolplay.report._format import fmt, stat_cells, system_cells
from toolplay.report._page import render_page
from toolplay.report._significance_cells import significance_context
from toolplay.report._user_errors import user_models_context
from toolplay.store import write_atomic

__all__ = ["build_comparison", "write_comparison"]


def build_comparison(comparison: Comparison, *, human_file: Path | None = None) -> str:
    """The comparison page's HTML."""
    values = [v for _, row in comparison.scenario_rows for v in row if v is not None]
    lo = min([0.0, *values])
    hi = max([1.0, *values])
    pairs = [
        {
            "left": p.left,
            "right": p.right,
            "cells": stat_cells(p.stats),
            "only_left": p.only_left,
            "only_right": p.only_right,
            "svg": scatter_plot(
                [Point(x, y, sid) for sid, x, y in p.points],
                x_label=p.left,
                y_label=p.right,
                lo=lo,
                hi=hi,
            ),
        }
        for p in comparison.pairs
    ]
    rows = sorted(comparison.scenario_rows, key=lambda r: (-(spread(r[1]) or 0.0), r[0]))
    suites = sorted({r.describe("suite") for r in comparison.runs})
    return render_page(
        "compare.html.jinja",
        title="toolplay comparison · " + " vs ".join(comparison.sources),
        subtitle=f"suite {', '.join(suites)} · {len(comparison.scenario_rows)} scenario(s)",
        labels=comparison.labels,
        paths=[
            {"label": label, "path": str(r.path)}
            for label, r in zip(comparison.labels, comparison.runs, strict=True)
        ],
        human_file=str(human_file) if human_file else None,
        metric_rows=[(name, [fmt(c) for c in cells]) for name, cells in comparison.metric_rows],
        category_rows=[(name, [fmt(c) for c in cells]) for name, cells in comparison.category_rows],
        category_metric=comparison.category_metric,
        pairs=pairs,
        sources=comparison.sources,
        significance=significance_context(comparison.significance),
        scenario_rows=[
            {"id": sid, "cells": [fmt(v) for v in row], "spread": fmt(spread(row))}
            for sid, row in rows
        ],
        systems=[
            {
                "left": s.left,
                "right": s.right,
                "cells": system_cells(s),
                "points": "; ".join(f"{a}: {fmt(x)}, {fmt(y)}" for a, x, y in s.points),
            }
            for s in comparison.systems
        ],
        system_metric=comparison.system_metric,
        user_models=user_models_context(comparison.user_models),
    )


def write_comparison(comparison: Comparison, out: Path, *, human_file: Path | None = None) -> Path:
    """Write the comparison page to `out` and return it."""
    write_atomic(out, build_comparison(comparison, human_file=human_file))
    out.chmod(0o644)  # meant to be shared; mkstemp would leave it 0600
    return out
