"""`audit.json`: the typed result of `toolplay audit`, published as JSON Schema.

One `ScenarioAudit` per scenario, sorted by how suspect it is, each with the flags it raised
(`FLAG_RULES` states every rule and its weight), the numbers behind them and the trajectories
that show them. `audit_version` changes when a field changes meaning or disappears.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from toolplay.scenarios import Erratum

__all__ = [
    "ANALYSIS_SCHEMAS",
    "AUDIT_VERSION",
    "FLAG_RULES",
    "Audit",
    "AuditRun",
    "AuditSettings",
    "DiscriminationValue",
    "Flag",
    "FlagCode",
    "FlagRule",
    "MilestoneReach",
    "Role",
    "RunScore",
    "ScenarioAudit",
    "SlotFill",
    "TrajectoryRef",
]

AUDIT_VERSION = 1

FlagCode = Literal[
    "ceiling_fails",
    "passed_by_floor",
    "reverse_discrimination",
    "milestone_never_reached",
    "slot_never_filled",
    "failed_by_all",
    "unstable",
    "never_discriminating",
]
Role = Literal["run", "floor", "ceiling"]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FlagRule(_Out):
    """A flag: its rule in words, what it suggests, and its weight in the suspicion score."""

    code: FlagCode
    weight: int = Field(description="Added to a flagged scenario's suspicion.")
    rule: str = Field(description="When the flag is raised.")
    means: str = Field(description="What it points at.")


FLAG_RULES: tuple[FlagRule, ...] = (
    FlagRule(
        code="ceiling_fails",
        weight=5,
        rule="a ceiling run (oracle: the reference solution) failed it in some trial",
        means="the gold answer or the check is broken: the reference cannot pass its own test",
    ),
    FlagRule(
        code="passed_by_floor",
        weight=4,
        rule="a floor run (no-call: never calls a tool) passed it in some trial",
        means="free credit: doing nothing passes (right only where refusing is the skill tested)",
    ),
    FlagRule(
        code="reverse_discrimination",
        weight=3,
        rule="its discrimination interval lies wholly below 0 (needs 4 or more runs)",
        means="stronger runs do worse on it: the classic sign of a wrong gold answer",
    ),
    FlagRule(
        code="milestone_never_reached",
        weight=3,
        rule="a milestone no trial of any run reached (similarity below the reach threshold)",
        means="a broken check or an impossible requirement (or a very hard step)",
    ),
    FlagRule(
        code="slot_never_filled",
        weight=3,
        rule="a gold slot no trial of any run filled with the gold value",
        means="a gold value nobody produces: its format, or a fact the user never gives",
    ),
    FlagRule(
        code="failed_by_all",
        weight=2,
        rule="no trial of any run passed it (the scorer's success rule)",
        means="impossible, broken, or beyond every assistant compared",
    ),
    FlagRule(
        code="unstable",
        weight=2,
        rule="its trial disagreement, averaged over the runs with 2 or more trials, is at "
        "least the threshold",
        means="its result flips from trial to trial: one trial says little",
    ),
    FlagRule(
        code="never_discriminating",
        weight=1,
        rule="every run (2 or more) scored it the same",
        means="it cannot tell the runs apart (saturated, or failed alike)",
    ),
)
"""Every flag, most suspect first."""


class AuditSettings(_Out):
    """The thresholds the rules use (recorded with the result)."""

    level: float = Field(default=0.95, gt=0.0, lt=1.0, description="Confidence level.")
    reach: float = Field(
        default=1.0,
        ge=0.0,
        le=1.0,
        description="A milestone counts as reached at this similarity or more.",
    )
    unstable: float = Field(
        default=0.5,
        gt=0.0,
        le=1.0,
        description="Mean trial disagreement at which a scenario is flagged unstable.",
    )


class AuditRun(_Out):
    """One run the audit read."""

    label: str
    path: str
    role: Role = Field(description="run (under test), floor (no-call) or ceiling (oracle).")
    played: bool = Field(description="A baseline the audit played itself (no model).")
    suite: str
    mode: str
    assistant: str
    trials: int
    scenarios: int = Field(description="Distinct scenarios with a scored trial.")
    mean: float | None = Field(description="Mean over its scenarios of the mean trial score.")


class TrajectoryRef(_Out):
    """A trajectory behind a flag: the run (its label) and the trial."""

    run: str
    trial: int
    score: float | None


class Flag(_Out):
    """A flag raised on a scenario."""

    code: FlagCode
    detail: str = Field(description="The numbers behind it, in a line.")
    evidence: list[TrajectoryRef] = Field(description="Trajectories that show it.")


class RunScore(_Out):
    """One run's result on one scenario."""

    run: str
    scores: list[float | None] = Field(description="Score per trial (None: not scored).")
    mean: float | None
    solved: int = Field(description="Trials that passed (the scorer's success rule).")
    disagreement: float | None = Field(
        description="Mean absolute score difference over pairs of trials (None: < 2)."
    )


class DiscriminationValue(_Out):
    """The item-rest correlation over the runs under test, with its interval."""

    n: int
    r: float | None
    low: float | None
    high: float | None


class MilestoneReach(_Out):
    """How close the runs came to one milestone."""

    id: str
    best: float = Field(description="Best similarity over every trial of every run.")
    runs_reaching: int = Field(description="Runs with a trial that reached it.")
    ceiling: float | None = Field(description="The ceiling's similarity (None: no ceiling).")


class SlotFill(_Out):
    """How often the runs filled one gold slot, and with what."""

    slot: str
    gold: Any
    correct: int
    wrong: int
    missing: int
    runs_filling: int = Field(description="Runs with a trial that filled it correctly.")
    common: Any = Field(default=None, description="The wrong value given most often.")
    common_count: int = 0
    common_runs: int = Field(default=0, description="Runs that gave the common wrong value.")


class ScenarioAudit(_Out):
    """One scenario's item analysis."""

    id: str
    description: str = ""
    categories: list[str] = Field(default_factory=list)
    suspicion: int = Field(description="Sum of the weights of its flags.")
    flags: list[Flag]
    solve_rate: float | None = Field(description="Share of the runs' scored trials passed.")
    mean: float | None = Field(description="Mean over the runs of their mean score.")
    floor: float | None
    ceiling: float | None
    trial_disagreement: float | None = Field(
        description="Mean over the runs with 2+ trials of their trial disagreement."
    )
    discrimination: DiscriminationValue
    runs: list[RunScore]
    milestones: list[MilestoneReach] = Field(default_factory=list)
    slots: list[SlotFill] = Field(default_factory=list)


class Audit(_Out):
    """The result of `toolplay audit` (`audit.json`)."""

    audit_version: int = AUDIT_VERSION
    suite: str
    suite_version: str = Field(description="The suite version every run is scored against.")
    settings: AuditSettings
    rules: list[FlagRule]
    runs: list[AuditRun]
    scenarios: int
    flagged: int
    flag_counts: dict[str, int] = Field(description="Scenarios per flag.")
    items: list[ScenarioAudit] = Field(description="Every scenario, most suspect first.")
    proposed_errata: list[Erratum] = Field(
        default_factory=list,
        description="Corrections the evidence supports, for a person to review "
        "(also written as errata.proposed.yaml).",
    )
    notes: list[str] = Field(default_factory=list)


ANALYSIS_SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {"audit": Audit.model_json_schema}
"""The analyses' published JSON Schemas (`toolplay schema audit`, `docs/schema/`)."""
