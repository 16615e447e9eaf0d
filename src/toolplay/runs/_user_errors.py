"""The summary's `user_errors` section: how often the simulated user erred, and the scores
without those trials.

Built from the user-error checks stored with each score (`ScenarioScore.user_errors`,
`toolplay.users`): per kind, the user messages flagged and the trials with at least one; the
share of scored trials with any user error; and every headline metric recomputed over the
trials *without* a user error, with its bootstrap interval, so a reader sees how much of the
result the simulated user carries. Flagged trials stay in every other figure of the summary as
they were played: nothing is dropped or re-run silently (that would select on the outcome).

The section is present only when some scored trial has a message a simulator wrote (a run with
the scripted user has nothing to check, and its summary stays as it was).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from toolplay.scoring import MetricValues, Scored, Scorer, aggregate, metric_ratios
from toolplay.stats import ConfidenceInterval, UncertaintySettings, bootstrap_intervals

__all__ = ["KindCount", "UserErrorSummary", "WithoutUserErrors", "user_error_summary"]


class KindCount(BaseModel):
    """How often one kind of user error was found."""

    model_config = ConfigDict(extra="forbid")

    messages: int = Field(description="User messages flagged with it.")
    trials: int = Field(description="Scored trials with at least one.")


class WithoutUserErrors(BaseModel):
    """The headline metrics over the scored trials without any user error."""

    model_config = ConfigDict(extra="forbid")

    trials: int = Field(description="Scored trials without a user error.")
    scenarios: int = Field(description="Distinct scenarios among them.")
    metrics: MetricValues
    intervals: dict[str, ConfidenceInterval] = Field(
        default_factory=dict,
        description="Each metric's bootstrap interval over those trials (the run's settings).",
    )


class UserErrorSummary(BaseModel):
    """The `user_errors` section of `summary.json` (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    trials: int = Field(description="Scored trials the checks read.")
    messages_checked: int = Field(description="User messages a simulator wrote, checked.")
    messages_with_errors: int = Field(description="User messages flagged (any kind).")
    trials_with_errors: int = Field(description="Scored trials with at least one user error.")
    share_with_errors: float | None = Field(
        description="trials_with_errors / trials (None: no trial checked)."
    )
    by_kind: dict[str, KindCount] = Field(
        description="Per kind (every registered check, zeros included)."
    )
    without_user_errors: WithoutUserErrors


def user_error_summary(
    scored: Sequence[Scored],
    scorers: Mapping[str, Scorer],
    kinds: Sequence[str],
    uncertainty: UncertaintySettings | None = None,
) -> UserErrorSummary | None:
    """The section for a run's scored records (None when no simulator-written message was
    checked; see the module docstring).

    Args:
        scored: Every scored trial with its scenario.
        scorers: The catalog's scorers (how the headline metrics aggregate and decompose).
        kinds: The registered checks' names (each listed, found or not).
        uncertainty: Interval settings; None leaves the intervals out.
    """
    checked = [r for r in scored if r.score.user_errors is not None]
    if not any(r.score.user_errors.checked_messages for r in checked if r.score.user_errors):
        return None
    messages: dict[str, set[tuple[str, int, int]]] = {k: set() for k in kinds}
    trials: dict[str, set[tuple[str, int]]] = {k: set() for k in kinds}
    flagged_messages: set[tuple[str, int, int]] = set()
    clean: list[Scored] = []
    for record in checked:
        found = record.score.user_errors
        assert found is not None
        key = (record.scenario.id, record.score.trial)
        for error in found.errors:
            messages.setdefault(error.kind, set()).add((*key, error.message_index))
            trials.setdefault(error.kind, set()).add(key)
            flagged_messages.add((*key, error.message_index))
        if not found.errors:
            clean.append(record)
    with_errors = len(checked) - len(clean)
    return UserErrorSummary(
        trials=len(checked),
        messages_checked=sum(
            r.score.user_errors.checked_messages for r in checked if r.score.user_errors
        ),
        messages_with_errors=len(flagged_messages),
        trials_with_errors=with_errors,
        share_with_errors=with_errors / len(checked) if checked else None,
        by_kind={
            kind: KindCount(messages=len(messages[kind]), trials=len(trials[kind]))
            for kind in messages
        },
        without_user_errors=_without(clean, scorers, uncertainty),
    )


def _without(
    clean: Sequence[Scored], scorers: Mapping[str, Scorer], uncertainty: UncertaintySettings | None
) -> WithoutUserErrors:
    kept = [r for r in clean if r.score.score is not None]
    ids = sorted({r.scenario.id for r in kept})
    intervals: dict[str, ConfidenceInterval] = {}
    if uncertainty is not None and kept:
        ratios = metric_ratios([r.score for r in kept], ids, scorers)
        intervals = bootstrap_intervals(ratios, uncertainty, "user_errors/without")
    return WithoutUserErrors(
        trials=len(kept),
        scenarios=len(ids),
        metrics=aggregate(clean, scorers).metrics,
        intervals=intervals,
    )
