"""`summary.json`: the typed, versioned summary of a run, built from its stored results only.

The summary is a pure function of the store: ordered by scenario id and trial, free of
wall-clock times and timings, so an interrupted run completed with `--resume` summarises to the
same bytes as an uninterrupted one. Trials ended by an infrastructure error are listed under
`error_list` and kept out of every score. Trials the store does not hold at all (a run
interrupted and not yet resumed, or rows dropped as damaged) are counted under `missing` and
listed under `missing_list`; both keys appear only when some trial is missing. `trials` holds
pass^k and the score's mean ± std over trials. `uncertainty` holds the confidence intervals of
the headline figures and the trial power (`_uncertainty`), with the settings that produced
them; the runner and `rescore_run` always write it.

`RunSummary` is published as JSON Schema (`toolplay schema summary`); `summary_version`
changes when a field changes meaning or disappears.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from toolplay.messages import TerminationReason, Usage
from toolplay.runs._trials import TrialStatistics, trial_statistics
from toolplay.runs._uncertainty import RunUncertainty, run_uncertainty
from toolplay.scenarios import Scenario, augmentation_of
from toolplay.scoring import (
    MethodSummary,
    MetricValues,
    ScenarioScore,
    Scored,
    Scorer,
    ToolTalkGroup,
    ToolTalkTotals,
    aggregate,
    group_counts,
)
from toolplay.stats import UncertaintySettings
from toolplay.store import StoredResult

SUMMARY_VERSION = 1


class ErrorEntry(BaseModel):
    """A trial that ended in an infrastructure error (never scored)."""

    scenario_id: str
    trial: int
    error: str | None


class MissingEntry(BaseModel):
    """A trial the store does not hold (the run was interrupted or rows were damaged)."""

    scenario_id: str
    trial: int


class RunHeader(BaseModel):
    """What produced the results: suite, mode, roles and versions (no secrets, no times)."""

    suite: str
    suite_name: str
    mode: str
    assistant: str
    user: str
    trials: int = 1
    toolplay_version: str
    embedding_model: str | None = None
    scoring: dict[str, Any] | None = None
    plugins: list[str] = Field(default_factory=list)
    assistant_settings: dict[str, Any] = Field(default_factory=dict)
    user_settings: dict[str, Any] = Field(default_factory=dict)
    presentation: str | None = None
    departures: list[str] | None = None


class RunSummary(BaseModel):
    """The summary of one run (`summary.json`)."""

    model_config = ConfigDict(extra="forbid")

    summary_version: int = SUMMARY_VERSION
    suite: str = Field(description="The suite spec as given to the run.")
    suite_name: str
    mode: str
    assistant: str
    user: str
    toolplay_version: str
    embedding_model: str | None = Field(
        default=None, description="The sentence-embedding model text similarity used."
    )
    scoring: dict[str, Any] | None = Field(
        default=None,
        description="Scoring settings the run changed from their defaults (e.g. "
        "slot_matching); absent when none was changed.",
    )
    plugins: list[str] = Field(
        default_factory=list,
        description="Plugins the catalog held besides the built-ins (entry points, --plugin).",
    )
    assistant_settings: dict[str, Any] = Field(default_factory=dict)
    user_settings: dict[str, Any] = Field(default_factory=dict)
    presentation: str | None = Field(
        default=None,
        description="What the models were shown and how their answers were read (absent in "
        "runs made before presentations were recorded: toolplay's own).",
    )
    departures: list[str] | None = Field(
        default=None,
        description="How the run departs from the setup of the paper's runs on this suite "
        "(model snapshot, simulated user, sampling, presentation); absent when it does not, or "
        "when the suite has no published setup.",
    )
    scenarios: int = Field(description="Scenario trials the run covers (scenarios x trials).")
    completed: int = Field(description="Scenario trials scored.")
    errors: int = Field(description="Scenario trials ended by an infrastructure error.")
    error_list: list[ErrorEntry] = Field(default_factory=list)
    missing: int | None = None
    missing_list: list[MissingEntry] | None = None
    termination: dict[str, int] = Field(description="Trials per termination reason.")
    usage: Usage
    metrics: MetricValues = Field(description="The headline metrics (see the glossary).")
    by_category: dict[str, MetricValues] = Field(default_factory=dict)
    by_augmentation: dict[str, MetricValues] | None = None
    by_domain: dict[str, MetricValues] | None = Field(
        default=None,
        description="The method's metrics per application domain (`Scenario.domain`), with "
        "counts; present when the run's scenarios name a domain (AutoDE).",
    )
    counts: ToolTalkTotals | None = None
    error_types: dict[str, int] | None = None
    splits: dict[str, ToolTalkGroup] | None = None
    trials: TrialStatistics
    uncertainty: RunUncertainty | None = Field(
        default=None,
        description="Confidence intervals of the headline figures, and trial power.",
    )

    def to_json(self) -> dict[str, Any]:
        """The JSON form: optional sections that do not apply are left out."""
        absent = {name for name in type(self).model_fields if getattr(self, name) is None}
        return self.model_dump(mode="json", exclude=absent)


class _Facts(BaseModel):
    """What a summary reads of a stored trajectory (validating its messages and exchanges
    too cost more than the rest of the summary).
    """

    termination: TerminationReason = "completed"
    error: str | None = None
    usage: Usage = Field(default_factory=Usage)


def build_summary(
    scenarios: Sequence[Scenario],
    results: Sequence[StoredResult],
    header: RunHeader,
    scorers: Mapping[str, Scorer],
    *,
    uncertainty: UncertaintySettings | None = None,
) -> RunSummary:
    """The run summary: counts, errors, terminations, usage and method metrics.

    With `uncertainty` settings it also holds the intervals and trial power they produce.
    """
    by_id = {s.id: s for s in scenarios}
    scored: list[Scored] = []
    errors: list[ErrorEntry] = []
    terminations: Counter[str] = Counter()
    usage = Usage()
    for result in results:
        scenario = by_id.get(result.scenario_id)
        if scenario is None:
            continue
        trajectory = _Facts.model_validate(result.trajectory)  # not the whole conversation
        terminations[trajectory.termination] += 1
        usage = usage.add(trajectory.usage)
        if result.status == "error" or result.score is None:
            errors.append(
                ErrorEntry(
                    scenario_id=result.scenario_id,
                    trial=result.trial,
                    error=result.error or trajectory.error,
                )
            )
            continue
        scored.append(Scored(scenario, ScenarioScore.model_validate(result.score)))
    held = {(r.scenario_id, r.trial) for r in results}
    missing = sorted(
        (s.id, t) for s in scenarios for t in range(header.trials) if (s.id, t) not in held
    )
    method = aggregate(scored, scorers)
    by_augmentation = _by_augmentation(scenarios, scored, scorers)
    by_domain = _by_domain(scenarios, scored, scorers)
    return RunSummary(
        **header.model_dump(exclude={"trials"}),
        scenarios=len(scenarios) * header.trials,
        completed=len(scored),
        errors=len(errors),
        error_list=errors,
        missing=len(missing) if missing else None,
        missing_list=[MissingEntry(scenario_id=i, trial=t) for i, t in missing] or None,
        termination=dict(sorted(terminations.items())),
        usage=usage,
        metrics=method.metrics,
        by_category=method.by_category if method.by_category is not None else _by_category(scored),
        by_augmentation=by_augmentation or None,
        by_domain=by_domain or None,
        counts=method.counts,
        error_types=method.error_types,
        splits=method.splits,
        trials=trial_statistics([r.score for r in scored], header.trials),
        uncertainty=None
        if uncertainty is None
        else run_uncertainty(scored, header.trials, uncertainty, scorers),
    )


def _by_augmentation(
    scenarios: Sequence[Scenario], scored: Sequence[Scored], scorers: Mapping[str, Scorer]
) -> dict[str, MetricValues]:
    """The method's metrics per augmentation setting (`none`: unaugmented), plus counts.

    Present only when the run holds augmented scenarios (a run of plain scenarios would show
    one `none` row that repeats `metrics`).
    """
    if not any(s.augmentation for s in scenarios):
        return {}
    groups: dict[str, list[Scored]] = {augmentation_of(s): [] for s in scenarios}
    for record in scored:
        groups[augmentation_of(record.scenario)].append(record)
    return {name: _with_counts(aggregate(group, scorers), group) for name, group in groups.items()}


def _by_domain(
    scenarios: Sequence[Scenario], scored: Sequence[Scored], scorers: Mapping[str, Scorer]
) -> dict[str, MetricValues]:
    """The method's metrics per application domain, plus counts (scenarios without one are
    grouped as `other`); present only when some scenario names its domain.
    """
    if not any(s.domain for s in scenarios):
        return {}
    groups: dict[str, list[Scored]] = {s.domain or "other": [] for s in scenarios}
    for record in scored:
        groups[record.scenario.domain or "other"].append(record)
    return {
        name: _with_counts(aggregate(groups[name], scorers), groups[name])
        for name in sorted(groups)
    }


def _with_counts(summary: MethodSummary, group: Sequence[Scored]) -> MetricValues:
    return MetricValues.of({**summary.metrics.values(), **group_counts(group)})


def _by_category(scored: Sequence[Scored]) -> dict[str, MetricValues]:
    groups: dict[str, list[Scored]] = defaultdict(list)
    for record in scored:
        if record.score.score is None:
            continue
        for category in record.scenario.categories:
            groups[category].append(record)
    return {
        c: MetricValues.of(
            {
                "score": fmean(r.score.score for r in v if r.score.score is not None),
                **group_counts(v),
            }
        )
        for c, v in sorted(groups.items())
    }
