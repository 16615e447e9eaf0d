"""ToolTalk's run metrics: micro-averaged per split and over all splits.

Counts add up over conversations (and trials); precision = matches / predictions, recall =
matches / ground-truth calls, incorrect-action rate = incorrect actions / predicted action
calls (failed ones included, as in the reference), success rate = successful conversations /
conversations, soft success rate = mean over conversations of recall x (1 - incorrect-action
rate). A ratio whose denominator is zero is None ("not defined"), except the incorrect-action
rate, which is 0 when no action was predicted: no action, nothing incorrect.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from toolplay.scenarios import Scenario
from toolplay.scoring._result import ScenarioScore

COUNTS = ("predictions", "ground_truth", "matches", "actions", "incorrect_actions", "successes")
ERROR_TYPES = ("premature_call", "faulty_planning", "incorrect_invocation")
DEFAULT_SPLIT = "default"


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def _group(details: Sequence[dict[str, Any]]) -> dict[str, Any]:
    counts: Counter[str] = Counter({key: 0 for key in COUNTS})
    errors: Counter[str] = Counter({key: 0 for key in ERROR_TYPES})
    soft = 0.0
    for item in details:
        counts.update({key: int(item["counts"][key]) for key in COUNTS})
        soft += float(item["soft_success"])
        for entry in item.get("error_types", []):
            errors[entry["error_type"]] += int(entry["count"])
    conversations = len(details)
    return {
        "counts": {"conversations": conversations, **{key: counts[key] for key in COUNTS}},
        "metrics": {
            "precision": _ratio(counts["matches"], counts["predictions"]),
            "recall": _ratio(counts["matches"], counts["ground_truth"]),
            "incorrect_action_rate": _ratio(counts["incorrect_actions"], counts["actions"]) or 0.0,
            "success_rate": _ratio(counts["successes"], conversations),
            "soft_success_rate": _ratio(soft, conversations),
        },
        "error_types": dict(errors),
    }


def aggregate_tooltalk(records: Sequence[tuple[Scenario, ScenarioScore]]) -> dict[str, Any]:
    """Per-split and overall ToolTalk metrics of a run's scored conversations."""
    by_split: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for scenario, score in records:
        if score.score is None or "counts" not in score.details:
            continue
        by_split[scenario.split or DEFAULT_SPLIT].append(score.details)
    overall = _group([item for items in by_split.values() for item in items])
    return {
        "metrics": overall["metrics"],
        "counts": overall["counts"],
        "error_types": overall["error_types"],
        "splits": {split: _group(items) for split, items in sorted(by_split.items())},
    }
