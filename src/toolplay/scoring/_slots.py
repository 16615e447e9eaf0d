"""AutoDE's slot metrics: the final call's arguments against the script's API-call label.

Per dialogue: the prediction is the assistant's last tool call. A call to another function
scores 0. Otherwise, slots are compared by exact value (after JSON normalisation, so 3 and 3.0
and "a" vs "a" compare as JSON values do); predicted slots whose value is null or empty are
dropped first. precision = correct / predicted slots, recall = correct / label slots, F1 their
harmonic mean; when both the prediction and the label have no slots, all three are 1.

Failure reasons: `never_called` (no call at all), `parse_failure` (the last call's arguments are
not a JSON object), `wrong_function`, `round_limit` (the conversation hit its turn limit before
the assistant answered), recorded beside the numbers. Aggregation is a macro average over
dialogues, then mean ± std over trials.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from statistics import fmean, pstdev
from typing import Any, NamedTuple

from toolplay.messages import ToolCall, Trajectory


class SlotScore(NamedTuple):
    """Slot metrics of one dialogue and why it failed, if it did."""

    precision: float
    recall: float
    f1: float
    failure: str | None
    correct: tuple[str, ...]
    wrong: tuple[str, ...]
    missing: tuple[str, ...]


def _number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_number(v) for v in value]
    if isinstance(value, dict):
        return {k: _number(v) for k, v in value.items()}
    return value


def _canonical(value: Any) -> str:
    return json.dumps(_number(value), sort_keys=True, ensure_ascii=False)


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str | list | dict) and len(value) == 0)


def slot_scores(predicted: Mapping[str, Any], label: Mapping[str, Any]) -> SlotScore:
    """Compare predicted slot values with the label's (see module docstring)."""
    kept = {k: v for k, v in predicted.items() if not _empty(v)}
    wanted = {k: v for k, v in label.items() if not _empty(v)}
    if not kept and not wanted:
        return SlotScore(1.0, 1.0, 1.0, None, (), (), ())
    correct = tuple(
        sorted(k for k, v in kept.items() if k in wanted and _canonical(v) == _canonical(wanted[k]))
    )
    wrong = tuple(sorted(k for k in kept if k not in correct))
    missing = tuple(sorted(k for k in wanted if k not in kept))
    precision = len(correct) / len(kept) if kept else 0.0
    recall = len(correct) / len(wanted) if wanted else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return SlotScore(precision, recall, f1, None, correct, wrong, missing)


def final_call(trajectory: Trajectory) -> ToolCall | None:
    """The assistant's last tool call, if any."""
    for message in reversed(trajectory.messages):
        if message.sender == "assistant" and message.tool_calls:
            return message.tool_calls[-1]
    return None


def score_dialogue(trajectory: Trajectory, label_name: str, label: Mapping[str, Any]) -> SlotScore:
    """Slot metrics of a dialogue against the label `label_name(**label)`."""
    call = final_call(trajectory)
    zero = SlotScore(0.0, 0.0, 0.0, None, (), (), tuple(sorted(label)))
    if call is None:
        failure = "round_limit" if trajectory.termination == "turn_limit" else "never_called"
        return zero._replace(failure=failure)
    if trajectory.real_tool_name(call.name) != label_name:
        return zero._replace(failure="wrong_function")
    arguments = call.parsed_arguments()
    if arguments is None:
        return zero._replace(failure="parse_failure")
    return slot_scores(arguments, label)


def macro_average(scores: Sequence[SlotScore]) -> dict[str, float]:
    """Mean precision, recall and F1 over dialogues."""
    if not scores:
        return {"slot_precision": 0.0, "slot_recall": 0.0, "slot_f1": 0.0}
    return {
        "slot_precision": fmean(s.precision for s in scores),
        "slot_recall": fmean(s.recall for s in scores),
        "slot_f1": fmean(s.f1 for s in scores),
    }


def across_trials(per_trial: Sequence[Mapping[str, float]]) -> dict[str, dict[str, float]]:
    """Mean and (population) standard deviation of each metric over trials."""
    keys = sorted({k for trial in per_trial for k in trial})
    return (
        {
            k: {"mean": fmean(t[k] for t in per_trial), "std": pstdev(t[k] for t in per_trial)}
            for k in keys
        }
        if per_trial
        else {}
    )
