"""Each scorer's declared metric parts, as ratios, give back exactly what its aggregator reports."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from support import CATALOG
from toolplay.methods.autode import CallRecord, SlotEvidence
from toolplay.methods.toolsandbox import MilestoneEvidence
from toolplay.methods.tooltalk import ToolTalkCounts, ToolTalkEvidence
from toolplay.scenarios import Scenario, WorldSpec
from toolplay.scoring import (
    MEAN_PARTS,
    CustomEvidence,
    Evidence,
    MethodSummary,
    MetricPart,
    MetricParts,
    MetricValues,
    ScenarioScore,
    Scored,
    Scorer,
    aggregate,
    evidence_part,
    mean_score,
    metric_ratios,
    parts_of,
)
from toolplay.stats import ratio_value

CLOCK = datetime(2024, 1, 1, tzinfo=UTC)
SCORERS = CATALOG.scorers


def scenario(sid: str, evaluation: str, split: str | None = None) -> Scenario:
    return Scenario(
        id=sid,
        world=WorldSpec(domains=["settings"], clock=CLOCK),
        evaluation=evaluation,
        split=split,
    )


def record(
    sid: str, trial: int, evaluation: str, score: float | None, evidence: Evidence | None = None
) -> ScenarioScore:
    return ScenarioScore(
        scenario_id=sid, trial=trial, evaluation=evaluation, score=score, evidence=evidence
    )


def milestones(similarity: float, turns: int) -> MilestoneEvidence:
    return MilestoneEvidence(
        milestone_similarity=similarity,
        minefield_similarity=0.0,
        milestone_mapping=[],
        minefield_mapping=[],
        turn_count=turns,
        messages=turns,
    )


def tooltalk(counts: ToolTalkCounts, soft: float, split: str) -> ToolTalkEvidence:
    return ToolTalkEvidence(
        counts=counts,
        precision=None,
        recall=0.0,
        incorrect_action_rate=0.0,
        success=bool(counts.successes),
        soft_success=soft,
        split=split,
        error_types=[],
        predictions=[],
        ground_truth=[],
        similarities=[],
    )


def slots(precision: float, recall: float, f1: float) -> SlotEvidence:
    return SlotEvidence(
        slot_precision=precision,
        slot_recall=recall,
        slot_f1=f1,
        failure=None,
        correct=[],
        wrong=[],
        missing=[],
        label=CallRecord(name="f", arguments={}),
        predicted=None,
    )


def check_against_aggregate(
    records: Sequence[tuple[Scenario, ScenarioScore]], scorers: dict[str, Scorer] | None = None
) -> None:
    scorers = scorers or SCORERS
    expected = aggregate([Scored(s, r) for s, r in records], scorers).metrics
    ids = sorted({s.id for s, _ in records})
    ratios = metric_ratios([r for _, r in records], ids, scorers)
    assert ratios, "no metric built"
    for name, ratio in ratios.items():
        assert ratio_value(ratio) == pytest.approx(expected.get(name), abs=1e-12), name


def test_milestone_metrics() -> None:
    rng = np.random.default_rng(0)
    records = []
    for i in range(12):
        for trial in range(3):
            value = float(rng.choice([0.0, 1.0, rng.random()]))
            evidence = milestones(max(value, 0.5), int(rng.integers(2, 12)))
            records.append(
                (
                    scenario(f"m{i}", "milestones"),
                    record(f"m{i}", trial, "milestones", value, evidence),
                )
            )
    records.append((scenario("m0", "milestones"), record("m0", 3, "milestones", None)))
    check_against_aggregate(records)


def test_a_record_without_its_evidence_stays_out_of_evidence_means() -> None:
    """The aggregator averages milestone similarity and turn count over evidence only."""
    records = [
        (scenario("a", "milestones"), record("a", 0, "milestones", 0.5, milestones(0.5, 4))),
        (scenario("b", "milestones"), record("b", 0, "milestones", 1.0)),
    ]
    check_against_aggregate(records)
    ratios = metric_ratios([r for _, r in records], ["a", "b"], SCORERS)
    assert ratio_value(ratios["turn_count"]) == 4.0
    assert ratio_value(ratios["similarity"]) == 0.75


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
        incorrect = int(rng.integers(0, actions + 1))
        counts = ToolTalkCounts(
            predictions=predictions,
            ground_truth=truth,
            matches=matches,
            actions=actions,
            incorrect_actions=incorrect,
            successes=int(matches == truth),
        )
        soft = matches / truth * (1 - incorrect / actions if actions else 1)
        split = "easy" if i % 2 else "hard"
        records.append(
            (
                scenario(f"t{i}", "tooltalk", split),
                record(
                    f"t{i}", 0, "tooltalk", float(counts.successes), tooltalk(counts, soft, split)
                ),
            )
        )
    check_against_aggregate(records)


def test_no_action_predicted_means_no_incorrect_action() -> None:
    counts = ToolTalkCounts(predictions=1, ground_truth=1, matches=1, successes=1)
    evidence = tooltalk(counts, 1.0, "default")
    ratios = metric_ratios([record("t", 0, "tooltalk", 1.0, evidence)], ["t"], SCORERS)
    assert ratio_value(ratios["incorrect_action_rate"]) == 0.0


def test_slot_metrics_keep_one_column_per_trial() -> None:
    rng = np.random.default_rng(2)
    records = []
    for i in range(9):
        for trial in range(3):
            p, r = float(rng.choice([0, 0.5, 1])), float(rng.choice([0, 0.5, 1]))
            f1 = 2 * p * r / (p + r) if p + r else 0.0
            records.append(
                (scenario(f"d{i}", "slots"), record(f"d{i}", trial, "slots", f1, slots(p, r, f1)))
            )
    check_against_aggregate(records)
    ratios = metric_ratios([r for _, r in records], sorted({s.id for s, _ in records}), SCORERS)
    assert ratios["slot_f1"].per_column and ratios["slot_f1"].numerator.shape == (9, 3)
    over_trials = aggregate([Scored(s, r) for s, r in records], SCORERS).sections["slots"][
        "over_trials"
    ]
    assert over_trials is not None
    assert ratio_value(ratios["slot_f1"]) == pytest.approx(over_trials["slot_f1"]["mean"])


def test_average_trials_weighs_every_scenario_the_same() -> None:
    records = [
        record("a", 0, "state", 1.0),
        record("a", 1, "state", 0.0),
        record("b", 0, "state", 1.0),
    ]
    pooled = metric_ratios(records, ["a", "b"], SCORERS)["score"]
    averaged = metric_ratios(records, ["a", "b"], SCORERS, average_trials=True)["score"]
    assert ratio_value(pooled) == pytest.approx(2 / 3)
    assert ratio_value(averaged) == pytest.approx((0.5 + 1.0) / 2)


def test_every_builtin_scorer_declares_parts_for_its_rates() -> None:
    """A built-in's parts name its own metrics, and every metric but a count (or a structured
    part such as `over_trials.METRIC`, a spread rather than a rate) has one."""
    for scorer in SCORERS.values():
        assert scorer.parts is not None, scorer.name
        declared = {m.name for m in scorer.metrics if m.range != "count" and "." not in m.name}
        assert set(scorer.parts.metrics) == declared, scorer.name
        assert scorer.parts.primary in declared | {"score"}, scorer.name
        assert scorer.parts.category in declared | {"score"}, scorer.name


def _hits(records: Sequence[Scored]) -> MethodSummary:
    """A plugin-like aggregator: hits over attempts, summed (a micro average)."""
    evidence = [r.score.evidence for r in records if isinstance(r.score.evidence, CustomEvidence)]
    hits = sum(int(getattr(e, "hits", 0)) for e in evidence)
    attempts = sum(int(getattr(e, "attempts", 0)) for e in evidence)
    return MethodSummary(metrics=MetricValues.of({"hit_rate": hits / attempts}))


def _plugin(parts: MetricParts | None) -> dict[str, Scorer]:
    def unused(*_: Any) -> ScenarioScore:
        raise AssertionError("not called")

    return {"hits": Scorer("hits", unused, _hits if parts else mean_score, (), parts=parts)}


def _plugin_records() -> list[tuple[Scenario, ScenarioScore]]:
    rows = [(3, 4), (0, 1), (5, 5), (1, 6)]
    return [
        (
            scenario(f"h{i}", "state"),
            record(
                f"h{i}",
                0,
                "hits",
                hits / attempts,
                CustomEvidence.model_validate({"kind": "hits", "hits": hits, "attempts": attempts}),
            ),
        )
        for i, (hits, attempts) in enumerate(rows)
    ]


def test_a_plugin_scorer_declares_its_own_parts() -> None:
    def counted(evidence: CustomEvidence) -> tuple[float, float]:
        return float(getattr(evidence, "hits", 0)), float(getattr(evidence, "attempts", 0))

    parts = MetricParts(
        {"hit_rate": MetricPart(evidence_part(CustomEvidence, counted))}, "hit_rate"
    )
    scorers = _plugin(parts)
    records = [(s.model_copy(update={"evaluation": "hits"}), r) for s, r in _plugin_records()]
    check_against_aggregate(records, scorers)
    ratios = metric_ratios([r for _, r in records], [s.id for s, _ in records], scorers)
    assert ratio_value(ratios["hit_rate"]) == pytest.approx(9 / 16)  # not the mean of ratios


def test_a_plugin_scorer_without_parts_is_read_as_its_mean_score() -> None:
    scorers = _plugin(None)
    assert parts_of(scorers, "hits") is MEAN_PARTS
    assert parts_of(scorers, "not-registered") is MEAN_PARTS
    records = [(s.model_copy(update={"evaluation": "hits"}), r) for s, r in _plugin_records()]
    check_against_aggregate(records, scorers)
    ratios = metric_ratios([r for _, r in records], [s.id for s, _ in records], scorers)
    assert set(ratios) == {"score", "perfect_rate"}
    assert ratio_value(ratios["score"]) == pytest.approx((0.75 + 0 + 1 + 1 / 6) / 4)
