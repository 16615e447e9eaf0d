"""A scoring method as the catalog registers it: the contract every scorer fills.

A scorer is pure: `(setup, trajectory, context) -> ScenarioScore`, no I/O, no model calls
beyond the injected text similarity. Declared with it, in one `Scorer`:

- its aggregator, which turns a run's scored records into a `MethodSummary` (headline metrics,
  optional rows per category, optional section of its own model, `section`);
- its metrics (name, range, how they aggregate, which published method they come from), so
  the glossary, the report and the CLI all read one definition;
- its evidence model (`evidence`): stored records are read back as it;
- its success rule (`success`): whether a scored trial counts as a success (pass^k);
- its settings model (`settings`), reachable with `--option`;
- how its evidence and its section read in a report (`show_evidence`, `show_section`);
- how its metrics decompose into per-scenario parts (`parts`), for intervals and tests.

A scenario names its method in `evaluation`. Nothing outside the method knows its types: the
run summary, pass^k and the reports ask the scorer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from toolplay.messages import Trajectory
from toolplay.scenarios import ReferenceCall, Scenario, ScenarioSetup
from toolplay.scoring._aggregates import MethodSummary, MetricValues, RunAggregate
from toolplay.scoring._decomposition import MetricParts
from toolplay.scoring._evidence import Evidence, ScenarioScore, evidence_as
from toolplay.scoring._result import ScoringContext
from toolplay.scoring._views import CheckParts, EvidenceView, SectionView, empty_view
from toolplay.settings import Settings

logger = logging.getLogger(__name__)


class Scored(NamedTuple):
    """A scenario with the score of one of its trials."""

    scenario: Scenario
    score: ScenarioScore


ScoreFunction = Callable[[ScenarioSetup, Trajectory, ScoringContext], ScenarioScore]
AggregateFunction = Callable[[Sequence[Scored]], MethodSummary]
ReferenceCheck = Callable[[ReferenceCall, Any, str | None], bool]
SuccessRule = Callable[[ScenarioScore], bool]
"""Whether one scored trial (with the scorer's typed evidence) is a success."""
EvidenceRenderer = Callable[[Any], EvidenceView]
"""The scorer's evidence (its own model) -> what the trajectory viewer shows."""
SectionRenderer = Callable[[Any], SectionView]
"""The scorer's section (its own model) -> how it reads in a report."""
PartsReader = Callable[[Any], CheckParts | None]
"""The scorer's evidence (its own model) -> its check part by part, for the audit."""


class VetoProbe(NamedTuple):
    """Trajectories that should fire one veto of a scenario (e.g. a ToolSandbox minefield).

    Validation plays each candidate (a copy of the scenario whose reference solution is the
    trajectory to play) with the oracle and the scripted user, scores it against the original
    scenario, and reports the veto when no candidate fires it: a veto no trajectory can fire
    checks nothing, and the reference solution, which never fires one, cannot show it.
    """

    label: str
    """What the veto is, for the report (e.g. "minefield '0'")."""
    candidates: Sequence[Scenario]
    fired: Callable[[ScenarioScore], bool]
    """Whether the veto fired in a candidate's score."""
    reason: str = ""
    """Why there is no candidate, when there is none."""


VetoProbes = Callable[[ScenarioSetup], Sequence[VetoProbe]]


@dataclass(frozen=True)
class Metric:
    """One metric a method reports (an entry of the glossary)."""

    name: str
    description: str
    range: str = "0 to 1, higher is better"
    aggregation: str = "mean over scored scenario trials"
    method: str = "toolplay"
    """The published method it comes from (ToolSandbox, ToolTalk, AutoDE) or toolplay."""


def perfect(score: ScenarioScore) -> bool:
    """The default success rule: a score of 1."""
    return score.score is not None and score.score >= 1.0


@dataclass(frozen=True)
class Scorer:
    """A scoring method: scorer, aggregator, metrics and the rest of its contract, together."""

    name: str
    score: ScoreFunction
    aggregate: AggregateFunction
    metrics: tuple[Metric, ...]
    description: str = ""
    reference_check: ReferenceCheck | None = None
    """How validation judges a replayed reference call against its record (default: the same
    result, or a failure where an exception is recorded)."""
    needs_similarity: bool = False
    """It compares free text with the embedding model (loaded lazily, recorded with the run)."""
    parts: MetricParts | None = None
    """How its headline metrics decompose into per-scenario parts, for confidence intervals
    and paired tests (None: read as the mean scenario score, as `mean_score` reports it)."""
    settings: type[Settings] | None = None
    """Its own knobs (read with `context.settings.of(...)`), reachable with `--option`."""
    evidence: type[Evidence] | None = None
    """The model of its evidence: stored records are read back as it (None: kept as given)."""
    success: SuccessRule | None = None
    """Whether a scored trial is a success, for pass^k (None: a score of 1)."""
    show_evidence: EvidenceRenderer | None = None
    """What the trajectory viewer shows of its evidence (None: only validation notes)."""
    section: type[BaseModel] | None = None
    """The model of its section of the run summary (its aggregator's `MethodSummary.section`)."""
    show_section: SectionRenderer | None = None
    """How its section reads in a report (None: not shown; it stays in summary.json)."""
    check_parts: PartsReader | None = None
    """Its check of a trial part by part, read from its evidence (None: no parts; the audit
    gives its scenarios scenario-level flags only)."""
    veto_probes: VetoProbes | None = None
    """Trajectories validation plays to show that each veto of a scenario can fire."""

    def typed(self, score: ScenarioScore) -> ScenarioScore:
        """`score` with its evidence as this scorer's model (as read back from a file)."""
        if self.evidence is None or score.evidence is None:
            return score
        if isinstance(score.evidence, self.evidence):
            return score
        typed = evidence_as(score.evidence, self.evidence)
        return score if typed is None else score.model_copy(update={"evidence": typed})

    def succeeded(self, score: ScenarioScore) -> bool:
        """Whether one scored trial counts as a success (`success`, default a score of 1)."""
        if score.score is None:
            return False
        return (self.success or perfect)(self.typed(score))

    def evidence_view(self, evidence: Evidence | None) -> EvidenceView:
        """What the trajectory viewer shows of `evidence` (validation problems as notes)."""
        view = empty_view()
        if evidence is None:
            return view
        if self.show_evidence is not None:
            typed = evidence_as(evidence, self.evidence) if self.evidence else evidence
            if typed is not None:
                view = self.show_evidence(typed)
        view["notes"] += [f"validation: {p}" for p in evidence.validation_problems]
        return view

    def parts_of(self, score: ScenarioScore) -> CheckParts | None:
        """`score`'s check part by part (None: the scorer has no parts, or no evidence)."""
        if self.check_parts is None or score.evidence is None:
            return None
        evidence = evidence_as(score.evidence, self.evidence) if self.evidence else score.evidence
        return None if evidence is None else self.check_parts(evidence)

    def section_view(self, data: Mapping[str, Any]) -> SectionView:
        """How this scorer's section of a summary (JSON data) reads in a report (nothing when
        the section is not of its model: it stays in summary.json, and a warning says why).
        """
        if self.show_section is None:
            return SectionView()
        if self.section is None:
            return self.show_section(data)
        try:
            section = self.section.model_validate(data)
        except ValidationError as exc:
            logger.warning("the %s section of the summary is not readable: %s", self.name, exc)
            return SectionView()
        return self.show_section(section)


def score_trajectory(
    setup: ScenarioSetup, trajectory: Trajectory, scorer: Scorer, context: ScoringContext
) -> ScenarioScore:
    """Score one trajectory (a None score for an infrastructure error: never scored).

    The context's user-error checks (`ScoringContext.user_checking`) run beside the scorer
    and are stored with the score (`ScenarioScore.user_errors`); they never change it.
    """
    scenario = setup.scenario
    if trajectory.termination == "infrastructure_error":
        return ScenarioScore(
            scenario_id=scenario.id,
            trial=trajectory.trial,
            evaluation=scenario.evaluation,
            score=None,
            error=trajectory.error,
        )
    score = scorer.score(setup, trajectory, context)
    if context.user_checking is None:
        return score
    found = context.user_checking.check(scenario, trajectory)
    return score.model_copy(update={"user_errors": found})


def group_counts(records: Sequence[Scored]) -> dict[str, int]:
    """How many distinct scenarios (`scenarios`) and scored trials (`trials`) a group holds."""
    scored = [r for r in records if r.score.score is not None]
    return {"scenarios": len({r.scenario.id for r in scored}), "trials": len(scored)}


def mean_score(records: Sequence[Scored]) -> MethodSummary:
    """The default aggregation: mean score and the share of perfect scores."""
    scores = [r.score.score for r in records if r.score.score is not None]
    perfect_scores = [s for s in scores if s >= 1.0]
    return MethodSummary(
        metrics=MetricValues.of(
            {
                "score": sum(scores) / len(scores) if scores else None,
                "perfect_rate": len(perfect_scores) / len(scores) if scores else None,
            }
        )
    )


def succeeded(score: ScenarioScore, scorers: Mapping[str, Scorer]) -> bool:
    """Whether one trial counts as a success, by its scorer's rule (a score of 1 when the
    scorer is unknown).
    """
    scorer = scorers.get(score.evaluation)
    return scorer.succeeded(score) if scorer is not None else perfect(score)


def aggregate(records: Sequence[Scored], scorers: Mapping[str, Scorer]) -> RunAggregate:
    """A run's aggregate: each method's metrics and rows, merged (one method is usual), and
    each method's section under its name. Each aggregator sees its records typed.
    """
    merged: dict[str, Any] = {}
    sections: dict[str, dict[str, Any]] = {}
    for method in sorted({r.scenario.evaluation for r in records}):
        scorer = scorers.get(method)
        group = [r for r in records if r.scenario.evaluation == method]
        if scorer is None:
            part = mean_score(group)
        else:
            part = scorer.aggregate([Scored(r.scenario, scorer.typed(r.score)) for r in group])
        _merge(merged, part.model_dump(exclude={"section"}))
        if part.section is not None:
            sections[method] = part.section.model_dump(mode="json")
    return RunAggregate.model_validate({**merged, "sections": sections})


def _merge(into: dict[str, Any], part: dict[str, Any]) -> None:
    """Merge `part` into `into`, recursively; a None never replaces a value."""
    for key, value in part.items():
        if isinstance(into.get(key), dict) and isinstance(value, dict):
            _merge(into[key], value)
        elif value is not None or key not in into:
            into[key] = value
