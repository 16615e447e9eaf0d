"""ToolTalk run metrics: micro averages per split, zero denominators, error-type totals."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

import support
from toolplay.methods.tooltalk import ToolTalkCounts, ToolTalkEvidence
from toolplay.scenarios import Scenario, WorldSpec
from toolplay.scoring import ScenarioScore


def record(split: str | None, index: int, **counts: int) -> tuple[Scenario, ScenarioScore]:
    full = {
        "predictions": 0,
        "ground_truth": 0,
        "matches": 0,
        "actions": 0,
        "incorrect_actions": 0,
        "successes": 0,
        **counts,
    }
    recall = full["matches"] / full["ground_truth"] if full["ground_truth"] else 1.0
    rate = full["incorrect_actions"] / full["actions"] if full["actions"] else 0.0
    details: dict[str, Any] = {
        "counts": full,
        "soft_success": recall * (1 - rate),
        "error_types": [{"turn": 0, "error_type": "faulty_planning", "count": 1}]
        if not full["successes"]
        else [],
    }
    scenario = Scenario(
        id=f"s{index}",
        world=WorldSpec(domains=["tooltalk.Alarm"], clock=datetime(2023, 1, 1, tzinfo=UTC)),
        evaluation="tooltalk",
        split=split,
    )
    score = ScenarioScore(
        scenario_id=scenario.id,
        evaluation="tooltalk",
        score=float(full["successes"]),
        evidence=ToolTalkEvidence(
            counts=ToolTalkCounts(**{k: v for k, v in full.items() if k != "conversations"}),
            precision=None,
            recall=recall,
            incorrect_action_rate=rate,
            success=bool(full["successes"]),
            soft_success=details["soft_success"],
            split=split,
            error_types=details["error_types"],
            predictions=[],
            ground_truth=[],
            similarities=[],
        ),
    )
    return scenario, score


def test_metrics_are_micro_averaged_per_split_and_overall() -> None:
    records = [
        record("easy", 1, predictions=2, ground_truth=1, matches=1, actions=2, incorrect_actions=1),
        record("easy", 2, predictions=3, ground_truth=3, matches=3, actions=1, successes=1),
        record("hard", 3, predictions=0, ground_truth=4),
    ]
    summary = support.summarise(records)
    easy = summary["sections"]["tooltalk"]["splits"]["easy"]
    assert easy["counts"] == {
        "conversations": 2,
        "predictions": 5,
        "ground_truth": 4,
        "matches": 4,
        "actions": 3,
        "incorrect_actions": 1,
        "successes": 1,
    }
    assert easy["metrics"]["precision"] == 4 / 5  # not the mean of 1/2 and 3/3
    assert easy["metrics"]["recall"] == 1.0
    assert easy["metrics"]["incorrect_action_rate"] == 1 / 3
    assert easy["metrics"]["success_rate"] == 0.5
    assert easy["metrics"]["soft_success_rate"] == pytest.approx((0.5 + 1.0) / 2)
    hard = summary["sections"]["tooltalk"]["splits"]["hard"]["metrics"]
    assert hard["precision"] is None  # no predictions: undefined, not 0 and no crash
    assert hard["incorrect_action_rate"] == 0.0
    assert hard["recall"] == 0.0
    assert summary["metrics"]["recall"] == 4 / 8
    assert summary["sections"]["tooltalk"]["counts"]["conversations"] == 3
    assert summary["sections"]["tooltalk"]["error_types"] == {
        "premature_call": 0,
        "faulty_planning": 2,
        "incorrect_invocation": 0,
    }


def test_unscored_records_are_left_out_and_split_defaults() -> None:
    scenario, _ = record(None, 9, predictions=1, ground_truth=1, matches=1, actions=1, successes=1)
    unscored = ScenarioScore(scenario_id="s9", evaluation="tooltalk", score=None)
    summary = support.summarise(
        [
            record(None, 1, predictions=1, ground_truth=1, matches=1, successes=1),
            (scenario, unscored),
        ]
    )
    assert list(summary["sections"]["tooltalk"]["splits"]) == ["default"]
    assert summary["sections"]["tooltalk"]["counts"]["conversations"] == 1
