"""Turn a score's typed evidence (`scoring.Evidence`) into what the trajectory viewer shows.

One function per evidence model, chosen by its type: milestones and minefields (which message
each matched, with what similarity, and the score before the minefield veto), ToolTalk's call
matching (each predicted call and the ground-truth call it matched, incorrect actions, ground
truth never matched, error types), AutoDE's slots (label vs predicted call, slot by slot) and
the state comparison (tables that ended unlike the reference's). A plugin's `CustomEvidence`
has no known fields: the viewer shows it raw, as it shows every record's raw evidence.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

from toolplay.scoring import (
    Evidence,
    MilestoneEvidence,
    MilestoneMatch,
    SlotEvidence,
    StateEvidence,
    ToolTalkEvidence,
)

__all__ = ["ViewerEvidence", "extract_evidence"]


class ViewerEvidence(TypedDict):
    """The viewer's evidence lists (see `extract_evidence`); every key is always present."""

    milestones: list[dict[str, Any]]
    minefields: list[dict[str, Any]]
    before_veto: float | None
    call_columns: list[str]
    calls: list[list[Any]]
    call_marks: list[dict[str, Any]]
    missed: list[str]
    error_types: list[str]
    slot_rows: list[list[str]]
    notes: list[str]


def _empty() -> ViewerEvidence:
    return ViewerEvidence(
        milestones=[],
        minefields=[],
        before_veto=None,
        call_columns=[],
        calls=[],
        call_marks=[],
        missed=[],
        error_types=[],
        slot_rows=[],
        notes=[],
    )


def _event(match: MilestoneMatch) -> dict[str, Any]:
    return {
        "label": match.id,
        "message_index": match.index,
        "similarity": match.similarity,
        "constraints": " · ".join(f"{c.kind} {c.similarity:.2f}" for c in match.constraints),
    }


def _milestones(evidence: MilestoneEvidence, out: ViewerEvidence) -> None:
    out["milestones"] = [_event(m) for m in evidence.milestone_mapping]
    out["minefields"] = [
        {**_event(m), "fired": m.similarity > 0} for m in evidence.minefield_mapping
    ]
    out["before_veto"] = evidence.milestone_similarity


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _tooltalk(evidence: ToolTalkEvidence, out: ViewerEvidence) -> None:
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
        out["calls"].append([_cell(p.turn), p.tool, p.message_index, verdict, _cell(p.error)])
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


def _slots(evidence: SlotEvidence, out: ViewerEvidence) -> None:
    predicted = evidence.predicted
    slots = predicted.slots if predicted is not None and predicted.slots is not None else {}
    label = evidence.label.arguments if isinstance(evidence.label.arguments, dict) else {}
    verdicts = {
        **{name: "correct" for name in evidence.correct},
        **{name: "wrong" for name in evidence.wrong},
        **{name: "missing" for name in evidence.missing},
    }
    for name in sorted({*label, *slots, *verdicts}):
        out["slot_rows"].append(
            [
                name,
                _cell(label.get(name)),
                _cell(slots.get(name)) if name in slots else "–",
                verdicts.get(name, "not scored"),
            ]
        )
    call = "no call" if predicted is None else f"{predicted.name}"
    out["notes"].append(
        f"label {evidence.label.name} · scored call {call}"
        + (f" · failure: {evidence.reason or evidence.failure}" if evidence.failure else "")
        + f" · slot P/R/F1 {evidence.slot_precision:.3f} / {evidence.slot_recall:.3f} / "
        f"{evidence.slot_f1:.3f} ({evidence.matching} matching)"
    )


def _state(evidence: StateEvidence, out: ViewerEvidence) -> None:
    if evidence.differing:
        out["notes"].append("tables unlike the reference's: " + ", ".join(evidence.differing))
    elif evidence.tables:
        out["notes"].append("every changed table ends as the reference leaves it")


def extract_evidence(evidence: Evidence | None) -> ViewerEvidence:
    """The viewer's evidence lists for one score (empty lists when there is no evidence).

    Args:
        evidence: The score's typed evidence, as stored.

    Returns:
        `milestones` and `minefields` (label, message_index, similarity, constraints, and
        `fired` for minefields) with `before_veto` (the milestone similarity before the
        minefield veto); ToolTalk's per-call table (`call_columns`, `calls`, `call_marks` for
        message badges, `missed` ground truth) and `error_types`; AutoDE's `slot_rows` (slot,
        label value, predicted value, verdict); and one-line `notes`.
    """
    out = _empty()
    if isinstance(evidence, MilestoneEvidence):
        _milestones(evidence, out)
    elif isinstance(evidence, ToolTalkEvidence):
        _tooltalk(evidence, out)
    elif isinstance(evidence, SlotEvidence):
        _slots(evidence, out)
    elif isinstance(evidence, StateEvidence):
        _state(evidence, out)
    if evidence is not None and evidence.validation_problems:
        out["notes"] += [f"validation: {p}" for p in evidence.validation_problems]
    return out
