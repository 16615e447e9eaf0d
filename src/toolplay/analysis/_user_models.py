"""Which simulated user, and how much it matters: `toolplay compare` of runs whose user differs.

When the compared runs were played with two or more users (`scripted`, `local`,
`openai:MODEL`, ...), three questions are answered apart from the rest of the comparison:

- **Per-scenario agreement**: for every two runs of the *same assistant* under different users,
  Pearson, Spearman and ICC(3,1) over the scenarios both scored, and the difference of their
  headline metric: how much of an assistant's score the user carries.
- **User-error rates side by side**: per run, the share of trials with a user error and the
  trials per kind (the summaries' `user_errors`; a scripted user has none to have).
- **Ranking of assistants**: with several assistants under each of two users, Kendall's tau-b
  between the two orderings by headline metric (over the assistants both users saw), and
  whether the order changed.

Runs are told apart by their user and assistant specs. A pair whose runs differ in more than
the user (suite, mode, trials, presentation) is still compared, with the difference listed,
since such a comparison does not isolate the user.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from toolplay.analysis._run_data import RunData
from toolplay.stats import Agreement, agreement, kendall_tau

__all__ = [
    "RankingChange",
    "SameAssistantPair",
    "UserErrorRate",
    "UserModelComparison",
    "compare_user_models",
]

_METRICS = ("slot_f1", "similarity", "success_rate", "score")
"""The metric standing for a run (the first one its summary has)."""


@dataclass(frozen=True)
class UserErrorRate:
    """One run's simulated-user error figures."""

    label: str
    user: str
    assistant: str
    trials: int | None
    share: float | None
    by_kind: dict[str, int]
    """Trials with at least one error of each kind."""
    metric: float | None
    without: float | None
    """The headline metric over the trials without a user error."""


@dataclass(frozen=True)
class SameAssistantPair:
    """Two runs of one assistant under two users, scenario by scenario."""

    assistant: str
    left: str
    right: str
    left_user: str
    right_user: str
    stats: Agreement
    difference: float | None
    """Left's headline metric minus right's."""
    differs_also: tuple[str, ...]
    """Settings besides the user in which the two runs differ."""


@dataclass(frozen=True)
class RankingChange:
    """The order of assistants under two users."""

    left_user: str
    right_user: str
    assistants: tuple[str, ...]
    left_order: tuple[str, ...]
    right_order: tuple[str, ...]
    tau: float | None

    @property
    def changed(self) -> bool:
        """Whether the two users order the assistants differently."""
        return self.left_order != self.right_order


@dataclass(frozen=True)
class UserModelComparison:
    """What changes with the simulated user (see the module docstring)."""

    metric: str | None
    rates: tuple[UserErrorRate, ...]
    pairs: tuple[SameAssistantPair, ...]
    rankings: tuple[RankingChange, ...]


def _metric(runs: Sequence[RunData]) -> str | None:
    for name in _METRICS:
        if any(r.summary is not None and r.summary.metrics.get(name) is not None for r in runs):
            return name
    return None


def _value(run: RunData, metric: str | None) -> float | None:
    if metric is None or run.summary is None:
        return None
    value = run.summary.metrics.get(metric)
    return None if value is None else float(value)


def _rate(run: RunData, label: str, metric: str | None) -> UserErrorRate:
    section = run.summary.user_errors if run.summary is not None else None
    without = None
    if section is not None and metric is not None:
        value = section.without_user_errors.metrics.get(metric)
        without = None if value is None else float(value)
    return UserErrorRate(
        label=label,
        user=run.describe("user"),
        assistant=run.describe("assistant"),
        trials=None if section is None else section.trials,
        share=None if section is None else section.share_with_errors,
        by_kind={} if section is None else {k: c.trials for k, c in section.by_kind.items()},
        metric=_value(run, metric),
        without=without,
    )


def _differs(a: RunData, b: RunData) -> tuple[str, ...]:
    out = [k for k in ("suite", "mode") if a.describe(k) != b.describe(k)]
    if a.trials != b.trials:
        out.append("trials")
    shown = [r.summary.presentation if r.summary else None for r in (a, b)]
    if shown[0] != shown[1]:
        out.append("presentation")
    return tuple(out)


def _pairs(
    runs: Sequence[RunData], labels: Sequence[str], metric: str | None
) -> list[SameAssistantPair]:
    out = []
    for i, j in itertools.combinations(range(len(runs)), 2):
        a, b = runs[i], runs[j]
        if a.describe("assistant") != b.describe("assistant"):
            continue
        if a.describe("user") == b.describe("user"):
            continue
        sa, sb = a.scenario_scores(), b.scenario_scores()
        common = sorted(set(sa) & set(sb))
        left, right = _value(a, metric), _value(b, metric)
        out.append(
            SameAssistantPair(
                assistant=a.describe("assistant"),
                left=labels[i],
                right=labels[j],
                left_user=a.describe("user"),
                right_user=b.describe("user"),
                stats=agreement([sa[s] for s in common], [sb[s] for s in common]),
                difference=None if left is None or right is None else left - right,
                differs_also=_differs(a, b),
            )
        )
    return out


def _order(scores: dict[str, float]) -> tuple[str, ...]:
    return tuple(sorted(scores, key=lambda name: (-scores[name], name)))


def _rankings(runs: Sequence[RunData], metric: str | None) -> list[RankingChange]:
    by_user: dict[str, dict[str, float]] = {}
    for run in runs:
        value = _value(run, metric)
        if value is not None:
            by_user.setdefault(run.describe("user"), {})[run.describe("assistant")] = value
    out = []
    for left, right in itertools.combinations(sorted(by_user), 2):
        shared = sorted(set(by_user[left]) & set(by_user[right]))
        if len(shared) < 2:
            continue
        a = {name: by_user[left][name] for name in shared}
        b = {name: by_user[right][name] for name in shared}
        out.append(
            RankingChange(
                left_user=left,
                right_user=right,
                assistants=tuple(shared),
                left_order=_order(a),
                right_order=_order(b),
                tau=kendall_tau([a[n] for n in shared], [b[n] for n in shared]),
            )
        )
    return out


def compare_user_models(
    runs: Sequence[RunData], labels: Sequence[str]
) -> UserModelComparison | None:
    """The user-model comparison of `runs` (None when they share one user)."""
    if len({r.describe("user") for r in runs}) < 2:
        return None
    metric = _metric(runs)
    return UserModelComparison(
        metric=metric,
        rates=tuple(_rate(r, label, metric) for r, label in zip(runs, labels, strict=True)),
        pairs=tuple(_pairs(runs, labels, metric)),
        rankings=tuple(_rankings(runs, metric)),
    )
