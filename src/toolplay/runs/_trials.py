"""Several trials per scenario: pass^k and the spread of the score across trials.

pass^k (τ-bench) is the chance that k trials drawn without replacement from a scenario's n
trials all succeed, C(c, k) / C(n, k) with c successes, averaged over scenarios: pass^1 is the
plain success rate, and pass^k falls as k grows unless the assistant is *reliably* right. A
trial succeeds when its scorer's success rule says so (`Scorer.success`: ToolTalk's is its
evidence's `success`), by default when its score is 1.0.
Trials lost to infrastructure errors are left out: a scenario with n < K scored trials counts
for k ≤ n only, and the number of scenarios behind each k is reported.

The score's mean ± std is over trials: the mean score of each trial index across scenarios, then
the mean and sample standard deviation of those K numbers (std is None for one trial).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import fmean, stdev

from pydantic import BaseModel

from toolplay.scoring import ScenarioScore, Scorer, succeeded
from toolplay.stats import pass_hat_k


class TrialStatistics(BaseModel):
    """The `trials` section of a summary: pass^k and the spread of the score over trials."""

    k: int
    pass_hat_k: dict[str, float | None]
    scenarios_with_k: dict[str, int]
    score_per_trial: dict[str, float]
    score_mean: float | None
    score_std: float | None


def trial_statistics(
    scores: Sequence[ScenarioScore], trials: int, scorers: Mapping[str, Scorer]
) -> TrialStatistics:
    """The `trials` section of a summary (`k` is the number of trials; `scorers` by name say
    which trials succeed).
    """
    outcomes: dict[str, list[bool]] = defaultdict(list)
    by_trial: dict[int, list[float]] = defaultdict(list)
    for score in sorted(scores, key=lambda s: (s.scenario_id, s.trial)):
        if score.score is None:
            continue
        outcomes[score.scenario_id].append(succeeded(score, scorers))
        by_trial[score.trial].append(score.score)
    per_scenario = list(outcomes.values())
    means = [fmean(by_trial[t]) for t in sorted(by_trial)]
    return TrialStatistics(
        k=trials,
        pass_hat_k={str(k): pass_hat_k(per_scenario, k) for k in range(1, trials + 1)},
        scenarios_with_k={
            str(k): sum(1 for o in per_scenario if len(o) >= k) for k in range(1, trials + 1)
        },
        score_per_trial={str(t): fmean(by_trial[t]) for t in sorted(by_trial)},
        score_mean=fmean(means) if means else None,
        score_std=stdev(means) if len(means) >= 2 else None,
    )
