"""AutoDE's `slots` scorer, whole: slot metrics, `SlotSettings`, evidence, section, views.

Its metrics are macro averages over dialogues per trial, then means over trials, so they
decompose into per-dialogue parts with one column per trial (`SLOT_PARTS`), from which the
run's intervals and `compare`'s paired tests recompute them.
"""

from __future__ import annotations

from collections.abc import Callable

from toolplay.methods.autode._evidence import SlotEvidence
from toolplay.methods.autode._scoring import SlotSettings, aggregate_slots, score_slots
from toolplay.methods.autode._section import SlotsSection
from toolplay.methods.autode._view import show_section, show_slots, slot_parts
from toolplay.scoring import (
    Metric,
    MetricPart,
    MetricParts,
    Scorer,
    evidence_part,
    with_evidence,
)

_MACRO = (
    "macro average over dialogues per trial, then the mean over trials (± the sample std "
    "over trials in over_trials)"
)


def _slot(value: Callable[[SlotEvidence], float]) -> MetricPart:
    return MetricPart(evidence_part(SlotEvidence, lambda e: (value(e), 1.0)))


SLOT_PARTS = MetricParts(
    {
        "slot_precision": _slot(lambda e: e.slot_precision),
        "slot_recall": _slot(lambda e: e.slot_recall),
        "slot_f1": _slot(lambda e: e.slot_f1),
    },
    primary="slot_f1",
    category="slot_f1",
    per_trial=True,
    counts=with_evidence(SlotEvidence),
)
"""Macro averages over dialogues, per trial then over trials (`aggregate_slots`)."""


def slots_scorer() -> Scorer:
    """AutoDE's scorer: slot precision, recall and F1 of the first call."""
    return Scorer(
        "slots",
        score_slots,
        aggregate_slots,
        (
            Metric(
                "slot_precision",
                "Correct predicted slots / predicted slots.",
                "0 to 1",
                _MACRO,
                "AutoDE",
            ),
            Metric(
                "slot_recall",
                "Correct predicted slots / label slots.",
                "0 to 1",
                _MACRO,
                "AutoDE",
            ),
            Metric(
                "slot_f1",
                "Harmonic mean of slot precision and recall.",
                "0 to 1",
                _MACRO,
                "AutoDE",
            ),
            Metric("dialogues", "Scored dialogue trials.", "count", "count", "AutoDE"),
            Metric(
                "trials",
                "Trials the averages are taken over.",
                "count",
                "count",
                "AutoDE",
            ),
            Metric(
                "failures.REASON",
                "Dialogue trials that failed for REASON: never_called, round_limit, "
                "parse_failure, assistant_error, wrong_function.",
                "count",
                "count",
                "AutoDE",
            ),
            Metric(
                "failure_reasons.TEXT",
                "Failed dialogue trials per reason in the reference's own wording.",
                "count",
                "count",
                "AutoDE",
            ),
            Metric(
                "over_trials.METRIC",
                "METRIC's mean ± sample std over trials (the spread AutoDE reports).",
                "0 to 1",
                "per trial: macro average over dialogues; then mean and std over trials",
                "AutoDE",
            ),
        ),
        parts=SLOT_PARTS,
        settings=SlotSettings,
        description="AutoDE: slot precision/recall/F1 of the first call to the label's "
        "function, by the reference's rules (cleaning, exact values; slot_matching=lenient to "
        "forgive).",
        evidence=SlotEvidence,
        show_evidence=show_slots,
        section=SlotsSection,
        show_section=show_section,
        check_parts=slot_parts,
    )
