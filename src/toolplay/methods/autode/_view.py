"""How a `slots` score and run read in a report.

A score: the label against the predicted call, slot by slot, and one line with the failure and
the slot precision, recall and F1 (and, for an audit, its slots against the gold). A run (its
summary section): the failure counts and each metric's spread over trials, as rows of the
metrics table.
"""

from __future__ import annotations

from toolplay.methods.autode._evidence import SlotEvidence
from toolplay.methods.autode._section import SlotsSection
from toolplay.scoring import (
    CheckParts,
    EvidenceView,
    MetricValue,
    SectionView,
    cell_text,
    empty_view,
)


def show_slots(evidence: SlotEvidence) -> EvidenceView:
    """The label and the scored call, slot by slot, with a summary line."""
    out = empty_view()
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
                cell_text(label.get(name)),
                cell_text(slots.get(name)) if name in slots else "–",
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
    return out


def show_section(section: SlotsSection) -> SectionView:
    """Failure counts (by code and in the reference's words) and the spread over trials."""
    rows: dict[str, MetricValue] = {}
    rows.update({f"failures.{k}": v for k, v in section.failures.items()})
    rows.update({f"failure_reasons.{k}": v for k, v in section.failure_reasons.items()})
    rows.update({f"over_trials.{k}": v for k, v in (section.over_trials or {}).items()})
    return SectionView(metrics=rows)


def slot_parts(evidence: SlotEvidence) -> CheckParts:
    """The check part by part: the label's slots, those correct, the values given for those
    wrong (as recorded after cleaning).
    """
    label = evidence.label.arguments
    gold = dict(label) if isinstance(label, dict) else {}
    predicted = evidence.predicted.slots if evidence.predicted is not None else None
    wrong = {
        slot: (predicted or {}).get(slot)
        for slot in evidence.wrong
        if slot in gold and slot not in evidence.correct
    }
    correct = frozenset(s for s in evidence.correct if s in gold)
    return CheckParts(gold=gold, correct=correct, wrong=wrong)
