"""AutoDE's slot metrics, by the reference's rules: the scored call's arguments vs the label.

The scored call is the assistant's **first** call to the label's function (calls to other
functions before it, such as lookups, are allowed); with `any_name` (AutoDE, which offers only
the gold API and does not score the name) simply its first call. Later calls never count: a
wrong call corrected afterwards scores the wrong one.

Cleaning happens as the prediction is recorded: the arguments are parsed as JSON, a
`functionName` key is dropped, and only values of the kinds the label's tools take survive:

- `strings` (AutoDE): booleans, and strings that are not empty (after stripping) and not `null`
  in any case; numbers, lists, objects and null are dropped;
- `json` (toolplay's own scripts, whose tools take numbers): the same, but numbers are kept,
  and so are lists and objects that are not empty.

The label is not cleaned. Values compare by plain equality (`"tv" != "TV"`, `3 == 3.0`; a
boolean never equals a number). Per dialogue: both empty → P = R = F1 = 1; one empty → 0;
otherwise correct = predicted slots named in the label with the label's value, P = correct /
|predicted|, R = correct / |label|, F1 = 2PR/(P+R) (0 when P+R = 0).

Failure codes (`failure`) and the reference's wording of them (`reason`):

| code | when | reason |
| --- | --- | --- |
| `never_called` | the dialogue ended without a call (assistant stopped, user ended) | `""` |
| `round_limit` | the assistant used its turns without a call | `Round limit reached` |
| `parse_failure` | the call's arguments are not a JSON object | `Arguments parse failed: <text>` |
| `assistant_error` | the assistant failed (e.g. its context overflowed) | the error |
| `wrong_function` | only other functions were called (never for `any_name`) | `""` |

A recorded reason (a replayed result file's) takes precedence where the trajectory has one.
Aggregation: the macro average over dialogues per trial; the mean over trials, ± the sample
standard deviation (ddof 1; None for one trial).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean, stdev
from typing import Any, Literal, NamedTuple

from toolplay.messages import ToolCall, Trajectory
from toolplay.methods.autode._reference import reference_texts

Cleaning = Literal["strings", "json"]
CLEANINGS: tuple[Cleaning, ...] = ("strings", "json")
FUNCTION_NAME_KEY = "functionName"
FAILURES = ("never_called", "round_limit", "parse_failure", "assistant_error", "wrong_function")
ROUND_LIMIT_REASON = reference_texts().round_limit_reason
PARSE_FAILURE_REASON = reference_texts().parse_failure_prefix
"""The reference's wording of the failures (exported from its code: `_reference`)."""


class SlotScore(NamedTuple):
    """Slot metrics of one dialogue and why it failed, if it did."""

    precision: float
    recall: float
    f1: float
    failure: str | None
    correct: tuple[str, ...]
    wrong: tuple[str, ...]
    missing: tuple[str, ...]
    reason: str = ""


def _kept(value: Any, cleaning: Cleaning) -> bool:
    if isinstance(value, bool):
        return True
    if isinstance(value, str):
        return value.strip() != "" and value.lower() != "null"
    if cleaning == "strings" or value is None:
        return False
    if isinstance(value, int | float):
        return True
    return isinstance(value, list | dict) and len(value) > 0


def clean_prediction(
    arguments: Mapping[str, Any], cleaning: Cleaning = "strings"
) -> dict[str, Any]:
    """The prediction as recorded: `functionName` and unusable values dropped (module doc)."""
    return {k: v for k, v in arguments.items() if k != FUNCTION_NAME_KEY and _kept(v, cleaning)}


def same_value(a: Any, b: Any) -> bool:
    """Plain equality, except that a boolean never equals a number."""
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return bool(a == b)


def slot_scores(predicted: Mapping[str, Any], label: Mapping[str, Any]) -> SlotScore:
    """Compare a (cleaned) prediction with the label, exactly (see the module docstring)."""
    if not predicted and not label:
        return SlotScore(1.0, 1.0, 1.0, None, (), (), ())
    correct = tuple(
        sorted(k for k, v in predicted.items() if k in label and same_value(v, label[k]))
    )
    wrong = tuple(sorted(k for k in predicted if k not in correct))
    missing = tuple(sorted(k for k in label if k not in predicted))
    if not predicted or not label:
        return SlotScore(0.0, 0.0, 0.0, None, correct, wrong, missing)
    precision = len(correct) / len(predicted)
    recall = len(correct) / len(label)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return SlotScore(precision, recall, f1, None, correct, wrong, missing)


def assistant_calls(trajectory: Trajectory) -> list[ToolCall]:
    """Every call the assistant under test made, in order (reference replays excluded)."""
    return [
        call
        for message in trajectory.messages
        if message.sender == "assistant" and not message.from_reference
        for call in message.tool_calls
    ]


def scored_call(trajectory: Trajectory, label_name: str, any_name: bool = False) -> ToolCall | None:
    """The first call to the label's function (any first call with `any_name`), or None."""
    for call in assistant_calls(trajectory):
        if any_name or trajectory.real_tool_name(call.name) == label_name:
            return call
    return None


def _no_call(trajectory: Trajectory, label: Mapping[str, Any], any_name: bool) -> SlotScore:
    zero = SlotScore(0.0, 0.0, 0.0, None, (), (), tuple(sorted(label)))
    recorded = trajectory.error or ""
    if trajectory.termination == "turn_limit":
        return zero._replace(failure="round_limit", reason=recorded or ROUND_LIMIT_REASON)
    if trajectory.termination == "assistant_error":
        return zero._replace(failure="assistant_error", reason=recorded)
    if not any_name and assistant_calls(trajectory):
        return zero._replace(failure="wrong_function", reason=recorded)
    return zero._replace(failure="never_called", reason=recorded)


def score_dialogue(
    trajectory: Trajectory,
    label_name: str,
    label: Mapping[str, Any],
    *,
    any_name: bool = False,
    cleaning: Cleaning = "strings",
) -> SlotScore:
    """Slot metrics of a dialogue against the label `label_name(**label)` (module docstring)."""
    call = scored_call(trajectory, label_name, any_name)
    if call is None:
        return _no_call(trajectory, label, any_name)
    arguments = call.parsed_arguments()
    if arguments is None:
        return SlotScore(
            0.0,
            0.0,
            0.0,
            "parse_failure",
            (),
            (),
            tuple(sorted(label)),
            PARSE_FAILURE_REASON + call.arguments,
        )
    return slot_scores(clean_prediction(arguments, cleaning), label)


def macro_average(scores: Sequence[SlotScore]) -> dict[str, float]:
    """Mean precision, recall and F1 over dialogues."""
    if not scores:
        return {"slot_precision": 0.0, "slot_recall": 0.0, "slot_f1": 0.0}
    return {
        "slot_precision": fmean(s.precision for s in scores),
        "slot_recall": fmean(s.recall for s in scores),
        "slot_f1": fmean(s.f1 for s in scores),
    }


def across_trials(per_trial: Sequence[Mapping[str, float]]) -> dict[str, dict[str, float | None]]:
    """Mean and sample standard deviation (ddof 1; None for one trial) of each metric."""
    keys = sorted({k for trial in per_trial for k in trial})
    out: dict[str, dict[str, float | None]] = {}
    for key in keys:
        values = [t[key] for t in per_trial]
        out[key] = {"mean": fmean(values), "std": stdev(values) if len(values) > 1 else None}
    return out
