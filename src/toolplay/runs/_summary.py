"""`summary.json`: the typed, versioned summary of a run, built from its stored results only.

The summary is a pure function of the store: ordered by scenario id and trial, free of
wall-clock times and timings, so an interrupted run completed with `--resume` summarises to the
same bytes as an uninterrupted one. Trials ended by an infrastructure error are listed under
`error_list` and kept out of every score. Trials the store does not hold at all (a run
interrupted and not yet resumed, or rows dropped as damaged) are counted under `missing` and
listed under `missing_list`; both keys appear only when some trial is missing. `trials` holds
pass^k and the score's mean ± std over trials. `uncertainty` holds the confidence intervals of
the headline figures and the trial power (`_uncertainty`), with the settings that produced
them; the runner and `rescore_run` always write it. `user_errors` counts the simulated user's
errors and gives the metrics without the trials that have one (`_user_errors`).

`RunSummary` is published as JSON Schema (`toolplay schema summary`); `summary_version`
changes when a field changes meaning or disappears. Version 2 holds each method's own part in
`sections`, under its scorer's name (its aggregator's `MethodSummary.section`, of the scorer's
`section` model): version 1 had ToolTalk's `counts`, `error_types` and `splits` at the top
level and AutoDE's `failures`, `failure_reasons` and `over_trials` inside `metrics`; a version 1
summary is read into version 2 (`migrate_summary`), so old run folders load, report and compare.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from toolplay.messages import TerminationReason, Usage
from toolplay.runs._trials import TrialStatistics, trial_statistics
from toolplay.runs._uncertainty import RunUncertainty, run_uncertainty
from toolplay.runs._user_errors import UserErrorSummary, user_error_summary
from toolplay.scenarios import Scenario, augmentation_of
from toolplay.scoring import (
    MetricValues,
    RunAggregate,
    ScenarioScore,
    Scored,
    Scorer,
    aggregate,
    group_counts,
)
from toolplay.stats import UncertaintySettings
from toolplay.store import StoredResult

SUMMARY_VERSION = 2

_V1_SECTIONS = {"tooltalk": ("counts", "error_types", "splits")}
"""Version 1's top-level fields of a method's own part, by the scorer that wrote them."""
_V1_METRIC_PARTS = {"slots": ("failures", "failure_reasons", "over_trials")}
"""Version 1's structured parts inside `metrics`, by the scorer that wrote them."""


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
    sections: dict[str, dict[str, Any]] | None = Field(
        default=None,
        description="Each method's own part of the summary, under its scorer's name (ToolTalk's "
        "counts, error types and splits; AutoDE's failures and spread over trials), of the "
        "scorer's own model; absent when no method has one.",
    )
    trials: TrialStatistics
    uncertainty: RunUncertainty | None = Field(
        default=None,
        description="Confidence intervals of the headline figures, and trial power.",
    )
    user_errors: UserErrorSummary | None = Field(
        default=None,
        description="Errors of the simulated user found by the user-error checks, per kind, "
        "and the headline metrics without the trials that have one; absent when no user "
        "message was written by a simulator (a scripted user).",
    )

    @model_validator(mode="before")
    @classmethod
    def _migrate(cls, data: Any) -> Any:
        return migrate_summary(data) if isinstance(data, dict) else data

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


SUMMARY_KEYS = tuple(_Facts.model_fields)
"""The trajectory keys a summary reads: `RunStore.results(keys=SUMMARY_KEYS)` is all
`build_summary` needs, without decoding each stored conversation."""


def build_summary(
    scenarios: Sequence[Scenario],
    results: Sequence[StoredResult],
    header: RunHeader,
    scorers: Mapping[str, Scorer],
    *,
    uncertainty: UncertaintySettings | None = None,
    user_checks: Sequence[str] = (),
) -> RunSummary:
    """The run summary: counts, errors, terminations, usage and method metrics.

    With `uncertainty` settings it also holds the intervals and trial power they produce;
    `user_checks` names the registered user-error checks (`user_errors` lists each).
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
        score = ScenarioScore.model_validate(result.score)
        scorer = scorers.get(score.evaluation)
        scored.append(Scored(scenario, scorer.typed(score) if scorer is not None else score))
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
        sections=method.sections or None,
        trials=trial_statistics([r.score for r in scored], header.trials, scorers),
        uncertainty=None
        if uncertainty is None
        else run_uncertainty(scored, header.trials, uncertainty, scorers),
        user_errors=user_error_summary(scored, scorers, user_checks, uncertainty),
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


def _with_counts(summary: RunAggregate, group: Sequence[Scored]) -> MetricValues:
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


def migrate_summary(data: dict[str, Any]) -> dict[str, Any]:
    """A stored summary of any version in the current format (see the module docstring)."""
    version = data.get("summary_version", 1)
    if not isinstance(version, int) or version >= SUMMARY_VERSION:
        return data
    out = dict(data)
    metrics = dict(out.get("metrics") or {})
    sections: dict[str, dict[str, Any]] = dict(out.get("sections") or {})
    for source, parts in ((out, _V1_SECTIONS), (metrics, _V1_METRIC_PARTS)):
        for method, names in parts.items():
            part = {name: value for name in names if (value := source.pop(name, None)) is not None}
            if part:
                sections[method] = part
    out["metrics"] = metrics
    if sections:
        out["sections"] = sections
    out["summary_version"] = SUMMARY_VERSION
    return out
