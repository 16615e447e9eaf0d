"""pass^k and the spread of scores across trials."""

from __future__ import annotations

from itertools import combinations
from statistics import fmean

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support import CATALOG
from toolplay.methods.tooltalk import ToolTalkCounts, ToolTalkEvidence
from toolplay.runs import trial_statistics
from toolplay.scoring import ScenarioScore, Scorer, succeeded
from toolplay.stats import pass_hat_k


def brute_force(outcomes: list[list[bool]], k: int) -> float | None:
    values = []
    for trials in outcomes:
        if len(trials) < k:
            continue
        subsets = list(combinations(trials, k))
        values.append(sum(all(s) for s in subsets) / len(subsets))
    return fmean(values) if values else None


@given(
    st.lists(st.lists(st.booleans(), min_size=1, max_size=6), min_size=1, max_size=6),
    st.integers(1, 6),
)
def test_pass_hat_k_is_the_chance_that_k_drawn_trials_all_succeed(
    outcomes: list[list[bool]], k: int
) -> None:
    expected = brute_force(outcomes, k)
    got = pass_hat_k(outcomes, k)
    assert got == pytest.approx(expected) if expected is not None else got is None


def test_known_values() -> None:
    outcomes = [[True, True, True, True], [True, False, True, False]]
    assert pass_hat_k(outcomes, 1) == pytest.approx((1 + 0.5) / 2)
    assert pass_hat_k(outcomes, 2) == pytest.approx((1 + 1 / 6) / 2)
    assert pass_hat_k(outcomes, 4) == pytest.approx(0.5)


def score(scenario: str, trial: int, value: float | None) -> ScenarioScore:
    return ScenarioScore(scenario_id=scenario, trial=trial, evaluation="state", score=value)


def tooltalk(success: bool, value: float) -> ScenarioScore:
    evidence = ToolTalkEvidence(
        counts=ToolTalkCounts(),
        precision=None,
        recall=1.0,
        incorrect_action_rate=0.0,
        success=success,
        soft_success=1.0,
        split=None,
        error_types=[],
        predictions=[],
        ground_truth=[],
        similarities=[],
    )
    return ScenarioScore(
        scenario_id="a", trial=0, evaluation="tooltalk", score=value, evidence=evidence
    )


def ok(record: ScenarioScore) -> bool:
    return succeeded(record, CATALOG.scorers)


def test_success_is_the_scorers_rule() -> None:
    assert ok(score("a", 0, 1.0)) and not ok(score("a", 0, 0.99))
    assert not ok(tooltalk(False, 1.0))
    assert ok(tooltalk(True, 0.2))
    stored = ScenarioScore.model_validate(tooltalk(True, 0.2).model_dump(mode="json"))
    assert ok(stored)  # read back from a file: the scorer reads its own evidence


def test_a_plugins_success_rule_counts_in_pass_hat_k() -> None:
    def half(record: ScenarioScore) -> bool:
        return (record.score or 0.0) >= 0.5

    lenient = Scorer("half", lambda *a: score("a", 0, 0), lambda r: None, (), success=half)  # type: ignore[arg-type,return-value]
    scorers = {**CATALOG.scorers, "half": lenient}
    records = [
        ScenarioScore(scenario_id="a", trial=t, evaluation="half", score=v)
        for t, v in enumerate([0.5, 0.7])
    ]
    assert trial_statistics(records, 2, scorers).pass_hat_k == {"1": 1.0, "2": 1.0}
    assert trial_statistics(records, 2, CATALOG.scorers).pass_hat_k == {"1": 0.0, "2": 0.0}


def test_statistics_over_trials_skip_unscored_ones() -> None:
    scores = [
        score("a", 0, 1.0),
        score("a", 1, 1.0),
        score("a", 2, 0.5),
        score("b", 0, 0.0),
        score("b", 1, None),
        score("b", 2, 1.0),
    ]
    stats = trial_statistics(scores, 3, CATALOG.scorers).model_dump()
    assert stats["pass_hat_k"]["1"] == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert stats["pass_hat_k"]["3"] == pytest.approx(0.0)  # only "a" has 3 scored trials
    assert stats["scenarios_with_k"] == {"1": 2, "2": 2, "3": 1}
    assert stats["score_per_trial"] == {"0": 0.5, "1": 1.0, "2": 0.75}
    assert stats["score_mean"] == pytest.approx(0.75)
    assert stats["score_std"] == pytest.approx(0.25)
    single = trial_statistics([score("a", 0, 0.4)], 1, CATALOG.scorers).model_dump()
    assert single["score_mean"] == 0.4 and single["score_std"] is None
