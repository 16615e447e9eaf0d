"""The `slots` scorer (AutoDE) and its run summary, over the pure metrics of `_slots`.

The label is the scenario's ground-truth call: `metadata["label"]` (`name`, `arguments`,
optional `accept`), else the last call of its reference solution. The prediction is the
assistant's last tool call (`_slots.final_call`). Before slots are compared, two things that
are not errors are forgiven:

- a slot given its tool's declared default is the same call as the slot left out (an assistant
  writing `second: 0` has not added a slot), on either side;
- `accept` lists other values counted as the label's for a slot (e.g. "AAPL" for "Apple").

The scenario's score is the dialogue's slot F1, so runs pair up per scenario in
`toolplay compare` (static vs dynamic agreement). The run summary gives the macro averages
`slot_precision`, `slot_recall`, `slot_f1` over dialogues (all trials pooled, which equals the
mean of the per-trial averages), failure counts by reason, per-category averages, and with
several trials each metric's mean ± std over trials (`over_trials`).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from toolplay.messages import Trajectory
from toolplay.scenarios import Scenario, ScenarioSetup
from toolplay.scoring._aggregates import MethodSummary, MetricValues, TrialSpread
from toolplay.scoring._evidence import CallRecord, ScenarioScore, SlotEvidence
from toolplay.scoring._result import ScoringContext
from toolplay.scoring._scorer import Scored, group_counts
from toolplay.scoring._slots import (
    SlotScore,
    across_trials,
    final_call,
    macro_average,
    score_dialogue,
    slot_scores,
)
from toolplay.tools import Registry

FAILURES = ("never_called", "wrong_function", "parse_failure", "round_limit")
"""Failure reasons counted in the summary (see `_slots`)."""


class Label:
    """The ground-truth call of a slots scenario."""

    def __init__(self, name: str, arguments: Mapping[str, Any], accept: Mapping[str, Any]):
        self.name = name
        self.arguments = dict(arguments)
        self.accept = {k: list(v) for k, v in accept.items()}


def slot_label(scenario: Scenario) -> Label | None:
    """The scenario's label (see the module docstring), or None when it has none."""
    label = scenario.metadata.get("label")
    if isinstance(label, Mapping) and isinstance(label.get("name"), str):
        return Label(label["name"], label.get("arguments") or {}, label.get("accept") or {})
    for turn in reversed(scenario.reference):
        if turn.calls:
            call = turn.calls[-1]
            return Label(call.name, call.arguments, {})
    return None


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


def _accepted(predicted: dict[str, Any], label: Label) -> dict[str, Any]:
    out = dict(predicted)
    for slot, alternatives in label.accept.items():
        if slot in out and any(_same(out[slot], alt) for alt in alternatives):
            out[slot] = label.arguments[slot]
    return out


def score_slots(
    setup: ScenarioSetup, trajectory: Trajectory, context: ScoringContext | None = None
) -> ScenarioScore:
    """Slot precision, recall and F1 of the final call against the label; score = F1.

    Details hold the metrics, the failure reason (or None), the correct, wrong and missing
    slots, the label and the predicted call. A label call that the environment refused is a
    `validation_problems` entry (the scenario's label cannot be right).
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
    defaults = _defaults(setup.registry, label.name)
    wanted = _without_defaults(label.arguments, defaults)
    result = score_dialogue(trajectory, label.name, wanted)
    call = final_call(trajectory)
    predicted: dict[str, Any] | None = None
    problems: list[str] = []
    if call is not None:
        predicted = call.parsed_arguments()
    if result.failure is None and predicted is not None:
        result = slot_scores(_accepted(_without_defaults(predicted, defaults), label), wanted)
        error = _call_error(trajectory, call.id if call else None)
        if result.f1 == 1.0 and error is not None:
            problems.append(f"the label call {label.name} failed: {error}")
    evidence = SlotEvidence(
        slot_precision=result.precision,
        slot_recall=result.recall,
        slot_f1=result.f1,
        failure=result.failure,
        correct=list(result.correct),
        wrong=list(result.wrong),
        missing=list(result.missing),
        label=CallRecord(name=label.name, arguments=label.arguments),
        predicted=None
        if call is None
        else CallRecord(
            name=trajectory.real_tool_name(call.name),
            arguments=predicted if predicted is not None else call.arguments,
        ),
        validation_problems=problems,
    )
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trajectory.trial,
        evaluation=scenario.evaluation,
        score=result.f1,
        evidence=evidence,
    )


def _call_error(trajectory: Trajectory, call_id: str | None) -> str | None:
    for message in trajectory.messages:
        if (
            message.is_tool_result
            and message.tool_call_id == call_id
            and not message.from_reference
        ):
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
    )


def aggregate_slots(records: Sequence[Scored]) -> MethodSummary:
    """Run metrics of a slots suite (see the module docstring)."""
    kept = [
        (r, r.score.evidence)
        for r in records
        if r.score.score is not None and isinstance(r.score.evidence, SlotEvidence)
    ]
    scores = [_slot_score(evidence) for _, evidence in kept]
    failures: Counter[str] = Counter({reason: 0 for reason in FAILURES})
    failures.update(s.failure for s in scores if s.failure is not None)
    per_trial: dict[int, list[SlotScore]] = defaultdict(list)
    groups: dict[str, list[SlotScore]] = defaultdict(list)
    members: dict[str, list[Scored]] = defaultdict(list)
    for (record, _), score in zip(kept, scores, strict=True):
        per_trial[record.score.trial].append(score)
        for category in record.scenario.categories:
            groups[category].append(score)
            members[category].append(record)
    over_trials = None
    if len(per_trial) > 1:
        spread = across_trials([macro_average(per_trial[t]) for t in sorted(per_trial)])
        over_trials = {name: TrialSpread.model_validate(v) for name, v in spread.items()}
    metrics = MetricValues.of(
        {**macro_average(scores), "dialogues": len(scores)},
        failures=failures,
        over_trials=over_trials,
    )
    return MethodSummary(
        metrics=metrics,
        by_category={
            name: MetricValues.of({**macro_average(group), **group_counts(members[name])})
            for name, group in sorted(groups.items())
        },
    )
