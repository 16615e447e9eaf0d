"""How many trials are enough: the spread of scores over trials and the detectable difference.

A run's mean score varies for two reasons: which scenarios the suite holds (between-scenario
variance `σ_b²` of the scenarios' true mean scores) and the assistant's own randomness on each
scenario (within-scenario variance `σ_w²` over trials). With n scenarios and K trials each, the
mean's variance is (σ_b² + σ_w²/K) / n: more trials shrink only the second term, so once it is
small next to the first, more scenarios help and more trials do not.

Estimates (method of moments): σ_w² pools the sample variances of the scenarios with two or
more trials (weighted by their degrees of freedom); σ_b² is the sample variance of the scenario
means less the part trial noise explains (σ_w² times the mean of 1/trials), floored at 0.

The smallest difference a comparison could detect, for a two-sided test at level α = 1 -
confidence level with the stated power (80 % by default), between this run and another of
the same design and variance on the same scenarios, is (z_{1-α/2} + z_power) x SE(difference).
The paired difference's variance depends on how alike the two assistants find the scenarios,
which one run cannot tell, so two bounds are given: `upper` assumes their scenario effects are
uncorrelated, SE = sqrt(2 (σ_b² + σ_w²/K) / n) (positively correlated assistants, the usual
case, do better); `floor` assumes they are identical and only trial noise differs, SE =
sqrt(2 σ_w² / (K n)). Both are given for the run's K trials and for 2K, 4K and unlimited trials.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import sqrt
from statistics import fmean, variance

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "DetectableDifference",
    "ScenarioSpread",
    "TrialPower",
    "scenario_spreads",
    "trial_power",
]

MOST_VARIABLE = 10
"""Scenarios listed by name in the summary (the report lists every one)."""


class ScenarioSpread(BaseModel):
    """One scenario's scores over its scored trials."""

    model_config = ConfigDict(extra="forbid")

    scenario_id: str
    trials: int
    mean: float
    sd: float = Field(description="Sample standard deviation over the trials.")


class DetectableDifference(BaseModel):
    """The smallest detectable difference for a design with `trials` trials per scenario."""

    model_config = ConfigDict(extra="forbid")

    trials: int | None = Field(description="Trials per scenario (None: unlimited).")
    se: float = Field(description="Standard error of one run's mean score.")
    upper: float = Field(description="Detectable difference, uncorrelated scenario effects.")
    floor: float = Field(description="Detectable difference, only trial noise differing.")


class TrialPower(BaseModel):
    """Spread over trials and detectable differences of a run with several trials."""

    model_config = ConfigDict(extra="forbid")

    metric: str = Field(default="score", description="The scenario score of the method.")
    scenarios: int = Field(description="Scenarios with a scored trial.")
    trials: int = Field(description="Most scored trials of a scenario (the run's K).")
    level: float
    power: float
    within_sd: float = Field(description="Pooled standard deviation over trials (σ_w).")
    between_sd: float = Field(description="Spread of the scenarios' true means (σ_b).")
    varying: int = Field(description="Scenarios whose trials did not all score the same.")
    most_variable: list[ScenarioSpread] = Field(
        description="The scenarios whose scores varied most over trials (at most 10)."
    )
    detectable: list[DetectableDifference]


def scenario_spreads(scores: Mapping[str, Sequence[float]]) -> list[ScenarioSpread]:
    """Per scenario with two or more scored trials: mean and sd, most variable first."""
    spreads = [
        ScenarioSpread(scenario_id=sid, trials=len(v), mean=fmean(v), sd=sqrt(variance(v)))
        for sid, v in scores.items()
        if len(v) >= 2
    ]
    return sorted(spreads, key=lambda s: (-s.sd, s.scenario_id))


def trial_power(
    scores: Mapping[str, Sequence[float]], *, level: float, power: float
) -> TrialPower | None:
    """The spread and detectable differences (see the module docstring).

    Args:
        scores: Per scenario, its scored trials' scores.
        level: Confidence level (the test's α is 1 - level).
        power: The power assumed, e.g. 0.8.

    Returns:
        None unless there are two scenarios and one of them has two scored trials.
    """
    known = {sid: list(v) for sid, v in scores.items() if v}
    spreads = scenario_spreads(known)
    if len(known) < 2 or not spreads:
        return None
    freedom = sum(s.trials - 1 for s in spreads)
    within = sum((s.trials - 1) * s.sd**2 for s in spreads) / freedom
    means = [fmean(v) for v in known.values()]
    noise = within * fmean(1.0 / len(v) for v in known.values())
    between = max(0.0, variance(means) - noise)
    n = len(known)
    k = max(len(v) for v in known.values())
    from scipy.special import ndtri  # noqa: PLC0415 (a slow import: startup)

    z = float(ndtri(1.0 - (1.0 - level) / 2.0) + ndtri(power))

    def detectable(trials: int | None) -> DetectableDifference:
        trial_noise = 0.0 if trials is None else within / trials
        se = sqrt((between + trial_noise) / n)
        return DetectableDifference(
            trials=trials,
            se=se,
            upper=z * sqrt(2.0) * se,
            floor=z * sqrt(2.0 * trial_noise / n),
        )

    return TrialPower(
        scenarios=n,
        trials=k,
        level=level,
        power=power,
        within_sd=sqrt(within),
        between_sd=sqrt(between),
        varying=sum(1 for s in spreads if s.sd > 0),
        most_variable=[s for s in spreads if s.sd > 0][:MOST_VARIABLE],
        detectable=[detectable(t) for t in (k, 2 * k, 4 * k, None)],
    )
