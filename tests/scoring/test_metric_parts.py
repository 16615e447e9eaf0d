"""Each method's metrics as ratios give back exactly what its aggregator reports."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from toolplay.scenarios import Scenario, WorldSpec
from toolplay.scoring import ScenarioScore, aggregate, metric_ratios
from toolplay.scoring._uncertainty import ratio_value

CLOCK = datetime(2024, 1, 1, tzinfo=UTC)


def scenario(sid: str, evaluation: str, split: str | None = None) -> Scenario:
    return Scenario(
        id=sid,
        world=WorldSpec(domains=["settings"], clock=CLOCK),
        evaluation=evaluation,  # type: ignore[arg-type]
        split=split,
    )


def record(
    sid: str, trial: int, evaluation: str, score: float | None, **details: Any
) -> ScenarioScore:
    return ScenarioScore(
        scenario_id=sid, trial=trial, evaluation=evaluation, score=score, details=details
    )


def check_against_aggregate(records: list[tuple[Scenario, ScenarioScore]]) -> None:
    expected = aggregate(records)["metrics"]
    ids = sorted({s.id for s, _ in records})
    ratios = metric_ratios([r for _, r in records], ids)
    assert ratios, "no metric built"
    for name, ratio in ratios.items():
        assert ratio_value(ratio) == pytest.approx(expected[name], abs=1e-12), name


def test_milestone_metrics() -> None:
    rng = np.random.default_rng(0)
    records = []
    for i in range(12):
        for trial in range(3):
            value = float(rng.choice([0.0, 1.0, rng.random()]))
            records.append(
                (
                    scenario(f"m{i}", "milestones"),
                    record(
                        f"m{i}",
                        trial,
                        "milestones",
                        value,
                        milestone_similarity=max(value, 0.5),
                        turn_count=int(rng.integers(2, 12)),
                    ),
                )
            )
    records.append((scenario("m0", "milestones"), record("m0", 3, "milestones", None)))
    check_against_aggregate(records)


def test_state_metrics() -> None:
    records = [
        (scenario(f"s{i}", "state"), record(f"s{i}", t, "state", float((i + t) % 3 == 0)))
        for i in range(7)
        for t in range(2)
    ]
    check_against_aggregate(records)


def test_tooltalk_micro_averages() -> None:
    rng = np.random.default_rng(1)
    records = []
    for i in range(15):
        predictions = int(rng.integers(0, 5))
        truth = int(rng.integers(1, 5))
        matches = min(predictions, truth, int(rng.integers(0, 5)))
        actions = int(rng.integers(0, predictions + 1))
        counts = {
            "predictions": predictions,
            "ground_truth": truth,
            "matches": matches,
            "actions": actions,
            "incorrect_actions": int(rng.integers(0, actions + 1)),
            "successes": int(matches == truth),
        }
        soft = matches / truth * (1 - counts["incorrect_actions"] / actions if actions else 1)
        records.append(
            (
                scenario(f"t{i}", "tooltalk", "easy" if i % 2 else "hard"),
                record(
                    f"t{i}",
                    0,
                    "tooltalk",
                    float(counts["successes"]),
                    counts=counts,
                    soft_success=soft,
                ),
            )
        )
    check_against_aggregate(records)


def test_no_action_predicted_means_no_incorrect_action() -> None:
    counts = {
        "predictions": 1,
        "ground_truth": 1,
        "matches": 1,
        "actions": 0,
        "incorrect_actions": 0,
        "successes": 1,
    }
    ratios = metric_ratios(
        [record("t", 0, "tooltalk", 1.0, counts=counts, soft_success=1.0)], ["t"]
    )
    assert ratio_value(ratios["incorrect_action_rate"]) == 0.0


def test_slot_metrics_keep_one_column_per_trial() -> None:
    rng = np.random.default_rng(2)
    records = []
    for i in range(9):
        for trial in range(3):
            p, r = float(rng.choice([0, 0.5, 1])), float(rng.choice([0, 0.5, 1]))
            f1 = 2 * p * r / (p + r) if p + r else 0.0
            records.append(
                (
                    scenario(f"d{i}", "slots"),
                    record(
                        f"d{i}",
                        trial,
                        "slots",
                        f1,
                        slot_precision=p,
                        slot_recall=r,
                        slot_f1=f1,
                        failure=None,
                    ),
                )
            )
    check_against_aggregate(records)
    ratios = metric_ratios([r for _, r in records], sorted({s.id for s, _ in records}))
    assert ratios["slot_f1"].per_column and ratios["slot_f1"].numerator.shape == (9, 3)
    over_trials = aggregate(records)["metrics"]["over_trials"]["slot_f1"]["mean"]
    assert ratio_value(ratios["slot_f1"]) == pytest.approx(over_trials)


def test_average_trials_weighs_every_scenario_the_same() -> None:
    records = [
        record("a", 0, "state", 1.0),
        record("a", 1, "state", 0.0),
        record("b", 0, "state", 1.0),
    ]
    pooled = metric_ratios(records, ["a", "b"])["score"]
    averaged = metric_ratios(records, ["a", "b"], average_trials=True)["score"]
    assert ratio_value(pooled) == pytest.approx(2 / 3)
    assert ratio_value(averaged) == pytest.approx((0.5 + 1.0) / 2)
