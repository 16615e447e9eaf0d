"""The `slots` scorer (AutoDE) and its run summary, over the pure metrics of `_slots`.

The label is the scenario's ground-truth call (`toolplay.methods.autode.slot_label`). The prediction
is the assistant's first call to the label's function, cleaned and compared exactly by the
reference's rules (`_slots`). Lenient matching is a scoring setting, off by default
(`SlotSettings.slot_matching = "lenient"`, `--option slot_matching=lenient`); it forgives
what is not an error in toolplay's own scripts but is in AutoDE:

- a slot given its tool's declared default is the same call as the slot left out (an assistant
  writing `second: 0` has not added a slot), on either side;
- `accept` lists other values counted as the label's for a slot (e.g. "AAPL" for "Apple");
- numbers compare as JSON values (3 == 3.0).

The scenario's score is the dialogue's slot F1, so runs pair up per scenario in
`toolplay compare`. The run summary follows the reference: per trial, the macro averages of
precision, recall and F1 over dialogues; `slot_precision`, `slot_recall`, `slot_f1` are their
means over trials and `over_trials` gives each metric's mean ± sample std (ddof 1; None with
one trial). Beside them: failure counts by code (`failures`) and by the reference's wording
(`failure_reasons`, the parse-failure text cut after its colon), and per-category averages.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import Field

from toolplay.messages import Trajectory
from toolplay.methods.autode._evidence import CallRecord, SlotEvidence, SlotPrediction
from toolplay.methods.autode._section import SlotsSection
from toolplay.methods.autode._slot_label import SlotLabel, slot_label
from toolplay.methods.autode._slots import (
    FAILURES,
    PARSE_FAILURE_REASON,
    Cleaning,
    SlotScore,
    across_trials,
    clean_prediction,
    macro_average,
    score_dialogue,
    scored_call,
    slot_scores,
)
from toolplay.scenarios import ScenarioSetup
from toolplay.scoring import (
    MethodSummary,
    MetricValues,
    ScenarioScore,
    Scored,
    ScoringContext,
    TrialSpread,
    evidence_as,
    group_counts,
)
from toolplay.settings import Settings
from toolplay.tools import Registry, is_api_only

NO_REASON = "(none: no call)"
"""How `failure_reasons` shows the reference's empty reason (the dialogue ended without a call)."""


SlotMatching = Literal["exact", "lenient"]


class SlotSettings(Settings):
    """The `slots` scorer's settings (`--option slot_matching=...`)."""

    slot_matching: SlotMatching | None = Field(
        default=None,
        description="AutoDE slots: 'exact' (the reference's rules, the default) or 'lenient' "
        "(declared defaults forgiven, a scenario's accepted alternatives and 3 == 3.0 counted "
        "correct; toolplay's own scripts).",
    )

    @property
    def matching(self) -> SlotMatching:
        """The slot matching, default filled in."""
        return self.slot_matching or "exact"


def _same(a: Any, b: Any) -> bool:
    def canonical(value: Any) -> str:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return json.dumps(value, sort_keys=True, ensure_ascii=False)

    return canonical(a) == canonical(b)


def _defaults(registry: Registry, name: str) -> dict[str, Any]:
    if name not in registry:
        return {}
    fields = registry.tools[name].arguments.model_fields
    return {k: f.default for k, f in fields.items() if not f.is_required()}


def _without_defaults(slots: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in slots.items() if not (k in defaults and _same(v, defaults[k]))}


def _lenient(
    registry: Registry, label: SlotLabel, predicted: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(prediction, label) with defaults forgiven, alternatives and 3 == 3.0 accepted."""
    defaults = _defaults(registry, label.name)
    wanted = _without_defaults(label.arguments, defaults)
    out = _without_defaults(predicted, defaults)
    for slot, value in list(out.items()):
        if slot not in wanted:
            continue
        if _same(value, wanted[slot]) or any(_same(value, a) for a in label.accept.get(slot, [])):
            out[slot] = wanted[slot]
    return out, wanted


def score_slots(
    setup: ScenarioSetup, trajectory: Trajectory, context: ScoringContext | None = None
) -> ScenarioScore:
    """Slot precision, recall and F1 of the scored call against the label; score = F1.

    The evidence holds the metrics, the failure code and the reference's reason and state, the
    correct, wrong and missing slots, the label, the predicted call (`arguments` as parsed,
    `slots` as recorded after cleaning) and the matching used. A label call that an
    implemented tool refused is a `validation_problems` entry (the label cannot be right).
    """
    scenario = setup.scenario
    label = slot_label(scenario)
    if label is None:
        return ScenarioScore(
            scenario_id=scenario.id,
            trial=trajectory.trial,
            evaluation=scenario.evaluation,
            score=None,
            error="no label: give metadata.label or a reference call",
        )
    cleaning: Cleaning = "json" if label.cleaning == "json" else "strings"
    matching = context.settings.of(SlotSettings).matching if context is not None else "exact"
    result = score_dialogue(
        trajectory, label.name, label.arguments, any_name=label.any_name, cleaning=cleaning
    )
    call = scored_call(trajectory, label.name, label.any_name)
    parsed = call.parsed_arguments() if call is not None else None
    recorded = clean_prediction(parsed, cleaning) if parsed is not None else None
    if recorded is not None and matching == "lenient":
        result = slot_scores(*_lenient(setup.registry, label, recorded))
    problems: list[str] = []
    if call is not None and result.f1 == 1.0:
        error = _call_error(setup.registry, trajectory, call.id)
        if error is not None:
            problems.append(f"the label call {label.name} failed: {error}")
    evidence = SlotEvidence(
        slot_precision=result.precision,
        slot_recall=result.recall,
        slot_f1=result.f1,
        failure=result.failure,
        reason=result.reason,
        state="success" if recorded is not None else "failure",
        correct=list(result.correct),
        wrong=list(result.wrong),
        missing=list(result.missing),
        label=CallRecord(name=label.name, arguments=dict(label.arguments)),
        predicted=None
        if call is None
        else SlotPrediction(
            name=trajectory.real_tool_name(call.name),
            arguments=parsed if parsed is not None else call.arguments,
            slots=recorded,
        ),
        matching=matching,
        validation_problems=problems,
    )
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trajectory.trial,
        evaluation=scenario.evaluation,
        score=result.f1,
        evidence=evidence,
    )


def _call_error(registry: Registry, trajectory: Trajectory, call_id: str) -> str | None:
    """The environment's refusal of a call, unless the tool is API-only (never run)."""
    for message in trajectory.messages:
        if message.is_tool_result and message.tool_call_id == call_id:
            if message.from_reference:
                continue
            name = message.tool_name or ""
            if name in registry and is_api_only(registry.tools[name]):
                return None
            return message.error
    return None


def _slot_score(evidence: SlotEvidence) -> SlotScore:
    return SlotScore(
        evidence.slot_precision,
        evidence.slot_recall,
        evidence.slot_f1,
        evidence.failure,
        (),
        (),
        (),
        evidence.reason,
    )


def _reason_name(score: SlotScore) -> str:
    """The reference's reason without the model's text (`Arguments parse failed`)."""
    if score.reason.startswith(PARSE_FAILURE_REASON):
        return PARSE_FAILURE_REASON.rstrip(": ")
    return score.reason.strip() or NO_REASON


def aggregate_slots(records: Sequence[Scored]) -> MethodSummary:
    """Run metrics of a slots suite (see the module docstring)."""
    kept = [
        (record, evidence)
        for record in records
        if record.score.score is not None
        and (evidence := evidence_as(record.score.evidence, SlotEvidence)) is not None
    ]
    scores = [_slot_score(evidence) for _, evidence in kept]
    failures: Counter[str] = Counter({reason: 0 for reason in FAILURES})
    failures.update(s.failure for s in scores if s.failure is not None)
    reasons: Counter[str] = Counter(_reason_name(s) for s in scores if s.failure is not None)
    per_trial: dict[int, list[SlotScore]] = defaultdict(list)
    groups: dict[str, list[SlotScore]] = defaultdict(list)
    members: dict[str, list[Scored]] = defaultdict(list)
    for (record, _), score in zip(kept, scores, strict=True):
        per_trial[record.score.trial].append(score)
        for category in record.scenario.categories:
            groups[category].append(score)
            members[category].append(record)
    spread = across_trials([macro_average(per_trial[t]) for t in sorted(per_trial)])
    headline = {
        key: (spread[key]["mean"] if key in spread else 0.0)
        for key in ("slot_precision", "slot_recall", "slot_f1")
    }
    metrics = MetricValues.of({**headline, "dialogues": len(scores), "trials": len(per_trial)})
    section = SlotsSection(
        failures=dict(failures),
        failure_reasons=dict(sorted(reasons.items())),
        over_trials={name: TrialSpread.model_validate(v) for name, v in spread.items()} or None,
    )
    return MethodSummary(
        metrics=metrics,
        section=section,
        by_category={
            name: MetricValues.of({**macro_average(group), **group_counts(members[name])})
            for name, group in sorted(groups.items())
        },
    )
