"""The `slots` scorer (AutoDE) and its run summary, over the pure metrics of `_slots`.

The label is the scenario's ground-truth call (`toolplay.scenarios.slot_label`). The prediction
is the assistant's first call to the label's function, cleaned and compared exactly by the
reference's rules (`_slots`). Lenient matching is an option, off by default
(`--option slot_matching=lenient`, read from `ScoringContext.options`); it forgives what is not
an error in toolplay's own scripts but is in AutoDE:

- a slot given its tool's declared default is the same call as the slot left out (an assistant
  writing `second: 0` has not added a slot), on either side;
- `accept` lists other values counted as the label's for a slot (e.g. "AAPL" for "Apple").

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
from typing import Any

from toolplay.messages import Trajectory
from toolplay.scenarios import Scenario, SlotLabel, scenario_registry, slot_label
from toolplay.scoring._result import ScenarioScore, ScoringContext
from toolplay.scoring._slots import (
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
from toolplay.tools import is_api_only

MATCHING_OPTION = "slot_matching"
MATCHINGS = ("exact", "lenient")
NO_REASON = "(none: no call)"
"""How `failure_reasons` shows the reference's empty reason (the dialogue ended without a call)."""

__all__ = ["FAILURES", "MATCHINGS", "MATCHING_OPTION", "aggregate_slots", "score_slots"]


def _same(a: Any, b: Any) -> bool:
    def canonical(value: Any) -> str:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return json.dumps(value, sort_keys=True, ensure_ascii=False)

    return canonical(a) == canonical(b)


def _defaults(scenario: Scenario, name: str) -> dict[str, Any]:
    registry = scenario_registry(scenario)
    if name not in registry:
        return {}
    fields = registry.tools[name].arguments.model_fields
    return {k: f.default for k, f in fields.items() if not f.is_required()}


def _without_defaults(slots: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in slots.items() if not (k in defaults and _same(v, defaults[k]))}


def _lenient(
    scenario: Scenario, label: SlotLabel, predicted: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(prediction, label) with defaults forgiven, alternatives and 3 == 3.0 accepted."""
    defaults = _defaults(scenario, label.name)
    wanted = _without_defaults(label.arguments, defaults)
    out = _without_defaults(predicted, defaults)
    for slot, value in list(out.items()):
        if slot not in wanted:
            continue
        if _same(value, wanted[slot]) or any(_same(value, a) for a in label.accept.get(slot, [])):
            out[slot] = wanted[slot]
    return out, wanted


def _matching(context: ScoringContext | None) -> str:
    matching = str((context.options if context else {}).get(MATCHING_OPTION, "exact"))
    if matching not in MATCHINGS:
        raise ValueError(f"{MATCHING_OPTION} is {matching!r}; known: {', '.join(MATCHINGS)}")
    return matching


def score_slots(
    scenario: Scenario, trajectory: Trajectory, context: ScoringContext | None = None
) -> ScenarioScore:
    """Slot precision, recall and F1 of the scored call against the label; score = F1.

    Details hold the metrics, the failure code and the reference's reason, the correct, wrong
    and missing slots, the label, the predicted call (`arguments` as parsed, `slots` as
    recorded after cleaning) and the matching used. A label call that an implemented tool
    refused is a `validation_problems` entry (the scenario's label cannot be right).
    """
    label = slot_label(scenario)
    if label is None:
        return ScenarioScore(
            scenario_id=scenario.id,
            trial=trajectory.trial,
            evaluation=scenario.evaluation,
            score=None,
            details={"error": "no label: give metadata.label or a reference call"},
        )
    cleaning: Cleaning = "json" if label.cleaning == "json" else "strings"
    matching = _matching(context)
    result = score_dialogue(
        trajectory, label.name, label.arguments, any_name=label.any_name, cleaning=cleaning
    )
    call = scored_call(trajectory, label.name, label.any_name)
    parsed = call.parsed_arguments() if call is not None else None
    recorded = clean_prediction(parsed, cleaning) if parsed is not None else None
    if recorded is not None and matching == "lenient":
        result = slot_scores(*_lenient(scenario, label, recorded))
    problems: list[str] = []
    if call is not None and result.f1 == 1.0:
        error = _call_error(scenario, trajectory, call.id)
        if error is not None:
            problems.append(f"the label call {label.name} failed: {error}")
    details: dict[str, Any] = {
        "slot_precision": result.precision,
        "slot_recall": result.recall,
        "slot_f1": result.f1,
        "failure": result.failure,
        "reason": result.reason,
        "state": "success" if recorded is not None else "failure",
        "correct": list(result.correct),
        "wrong": list(result.wrong),
        "missing": list(result.missing),
        "label": {"name": label.name, "arguments": dict(label.arguments)},
        "predicted": None
        if call is None
        else {
            "name": trajectory.real_tool_name(call.name),
            "arguments": parsed if parsed is not None else call.arguments,
            "slots": recorded,
        },
        "matching": matching,
    }
    if problems:
        details["validation_problems"] = problems
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trajectory.trial,
        evaluation=scenario.evaluation,
        score=result.f1,
        details=details,
    )


def _call_error(scenario: Scenario, trajectory: Trajectory, call_id: str) -> str | None:
    """The environment's refusal of a call, unless the tool is API-only (never run)."""
    for message in trajectory.messages:
        if message.tool_call_id == call_id and not message.from_reference:
            registry = scenario_registry(scenario)
            name = message.tool_name or ""
            if name in registry and is_api_only(registry.tools[name]):
                return None
            return message.error
    return None


def _slot_score(details: Mapping[str, Any]) -> SlotScore:
    return SlotScore(
        float(details["slot_precision"]),
        float(details["slot_recall"]),
        float(details["slot_f1"]),
        details.get("failure"),
        (),
        (),
        (),
        str(details.get("reason") or ""),
    )


def _reason_name(score: SlotScore) -> str:
    """The reference's reason without the model's text (`Arguments parse failed`)."""
    if score.reason.startswith(PARSE_FAILURE_REASON):
        return PARSE_FAILURE_REASON.rstrip(": ")
    return score.reason.strip() or NO_REASON


def aggregate_slots(records: Sequence[tuple[Scenario, ScenarioScore]]) -> dict[str, Any]:
    """Run metrics of a slots suite (see the module docstring)."""
    kept = [(s, r) for s, r in records if r.score is not None and "slot_f1" in r.details]
    scores = [_slot_score(r.details) for _, r in kept]
    failures: Counter[str] = Counter({reason: 0 for reason in FAILURES})
    failures.update(s.failure for s in scores if s.failure is not None)
    reasons: Counter[str] = Counter(_reason_name(s) for s in scores if s.failure is not None)
    per_trial: dict[int, list[SlotScore]] = defaultdict(list)
    groups: dict[str, list[SlotScore]] = defaultdict(list)
    for (scenario, record), score in zip(kept, scores, strict=True):
        per_trial[record.trial].append(score)
        for category in scenario.categories:
            groups[category].append(score)
    trial_macros = [macro_average(per_trial[t]) for t in sorted(per_trial)]
    spread = across_trials(trial_macros)
    metrics: dict[str, Any] = {
        key: (spread[key]["mean"] if key in spread else 0.0)
        for key in ("slot_precision", "slot_recall", "slot_f1")
    }
    metrics.update(
        dialogues=len(scores),
        trials=len(per_trial),
        failures=dict(failures),
        failure_reasons=dict(sorted(reasons.items())),
    )
    if spread:
        metrics["over_trials"] = spread
    return {
        "metrics": metrics,
        "by_category": {
            name: {**macro_average(group), "scenarios": len(group)}
            for name, group in sorted(groups.items())
        },
    }
