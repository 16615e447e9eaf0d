"""How a `tooltalk` score and run read in a report.

A score: each predicted call and the ground-truth call it matched, incorrect actions, ground
truth never matched, error types. A run (its summary section): the counts and error types
over all conversations, and the metrics per split.
"""

from __future__ import annotations

from typing import Any

from toolplay.methods.tooltalk._evidence import ToolTalkEvidence
from toolplay.methods.tooltalk._summary import ToolTalkSection
from toolplay.scoring import Breakdown, EvidenceView, SectionView, cell_text, empty_view


def show_tooltalk(evidence: ToolTalkEvidence) -> EvidenceView:
    """The call matching of one conversation, call by call."""
    out = empty_view()
    truths = evidence.ground_truth

    def truth_label(g: int) -> str:
        if not 0 <= g < len(truths):
            return f"#{g}"
        return f"#{g} {truths[g].tool} (turn {truths[g].turn})"

    for p in evidence.predictions:
        g = p.matches_ground_truth
        if g is not None:
            verdict, kind = f"matches {truth_label(g)}", "good"
        elif p.incorrect_action:
            verdict, kind = "incorrect action", "bad"
        else:
            verdict, kind = "no match", "weak"
        out["calls"].append(
            [cell_text(p.turn), p.tool, p.message_index, verdict, cell_text(p.error)]
        )
        if p.message_index >= 0:
            out["call_marks"].append(
                {"message_index": p.message_index, "label": verdict, "kind": kind}
            )
    if out["calls"]:
        out["call_columns"] = ["turn", "tool", "message", "verdict", "error"]
    out["missed"] = [
        f"#{g} {t.tool} (turn {t.turn})" for g, t in enumerate(truths) if t.matched_by is None
    ]
    out["error_types"] = [
        ("whole conversation" if e.turn is None else f"turn {e.turn}")
        + f": {e.error_type.replace('_', ' ')}"
        + (f" ×{e.count}" if e.count > 1 else "")
        for e in evidence.error_types
    ]
    return out


def show_section(section: ToolTalkSection) -> SectionView:
    """The run's counts and error types, and its metrics per split."""
    tables: list[tuple[str, dict[str, Any]]] = []
    if section.counts is not None:
        tables.append(("Counts", section.counts.model_dump()))
    if section.error_types:
        tables.append(("Error types", dict(section.error_types)))
    rows = {
        name: {"conversations": group.counts.conversations, **group.metrics.values()}
        for name, group in section.splits.items()
    }
    splits = [Breakdown("splits", "By split", rows)] if rows else []
    return SectionView(tables=tables, breakdowns=splits)
