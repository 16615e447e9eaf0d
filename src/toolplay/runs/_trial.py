"""One scenario trial, played and scored: the unit of work every executor runs.

`play_trial` is what the local executor runs in the event loop and what a Ray worker runs in
its own process; both hand back a `TrialOutcome` of plain JSON data, so the one writer of the
store (the driver) persists it the same way wherever it was made. A harness bug while playing
or scoring ends the trial as an error with its traceback (stored, replayed on resume), never
as a score.
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass, field
from typing import Any

from toolplay.catalog import Catalog
from toolplay.conversation import Mode, PlayRequest, PlaySettings
from toolplay.messages import ScenarioInfo, Trajectory, compact_exchanges
from toolplay.roles import Assistant, Presentation, Recording, User
from toolplay.scenarios import Scenario, ScenarioSetup
from toolplay.scoring import ScenarioScore, ScoringContext, score_trajectory

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrialOutcome:
    """A finished trial as the store keeps it (JSON data: it may cross process boundaries).

    Attributes:
        scenario_id: The scenario.
        trial: The trial number.
        trajectory: `Trajectory.model_dump(mode="json")`, with the scenario's info.
        score: `ScenarioScore.model_dump(mode="json")`, or None when not scored.
        failed: Stored as an error (an infrastructure error, or the harness failed to play or
            score it), which resume plays again.
        error: Why it failed, when known.
    """

    scenario_id: str
    trial: int
    trajectory: dict[str, Any]
    score: dict[str, Any] | None
    failed: bool
    error: str | None

    @property
    def status(self) -> str:
        """The store's status of the row: `error` (played again on resume) or `done`."""
        return "error" if self.failed else "done"


@dataclass(frozen=True)
class TrialWork:
    """What playing and scoring a trial needs, resolved once per run (or per worker)."""

    catalog: Catalog
    mode: Mode
    mode_name: str
    assistant: Assistant
    user: User
    play: PlaySettings
    context: ScoringContext
    presentation: Presentation = field(default_factory=Presentation)
    """What the assistant is shown (the roles hold the same presentation)."""


def scenario_info(scenario: Scenario) -> ScenarioInfo:
    """What the store keeps about a scenario beside its trajectory (for reports)."""
    return ScenarioInfo(
        description=scenario.description,
        categories=list(scenario.categories),
        evaluation=scenario.evaluation,
        split=scenario.split,
        domain=scenario.domain,
        augmentation=scenario.augmentation,
        base_id=scenario.base_id,
    )


def harness_failure(
    scenario: Scenario, trial: int, mode: str, assistant: str, user: str, what: str
) -> Trajectory:
    """The record of a trial the harness could not play (stored as an error).

    Call it inside an `except` block: the current traceback goes into the error.
    """
    return Trajectory(
        scenario_id=scenario.id,
        trial=trial,
        termination="infrastructure_error",
        error=f"{what}\n{traceback.format_exc()}",
        assistant=assistant,
        user=user,
        mode=mode,
        scenario=scenario_info(scenario),
    )


async def play_only(
    work: TrialWork, scenario: Scenario, trial: int
) -> tuple[Trajectory, ScenarioSetup | None]:
    """The trial's trajectory (with its scenario info), and the setup to score it with.

    The setup is None when the harness failed to play the trial (nothing to score).
    """
    try:
        setup = work.catalog.setup(scenario)
        if isinstance(work.assistant, Recording):
            trajectory = work.assistant.recorded(setup, trial)
        else:
            request = PlayRequest(
                setup, work.assistant, work.user, trial, work.play, presentation=work.presentation
            )
            trajectory = await work.mode.play(request)
    except Exception as exc:  # a harness bug: recorded, retried on resume
        logger.exception("%s trial %d: playing failed", scenario.id, trial)
        failure = harness_failure(
            scenario,
            trial,
            work.mode_name,
            work.assistant.name,
            work.user.name,
            f"harness error: {exc!r}",
        )
        return failure, None
    return trajectory.model_copy(update={"scenario": scenario_info(scenario)}), setup


def score_only(
    work: TrialWork,
    scenario: Scenario,
    trial: int,
    trajectory: Trajectory,
    setup: ScenarioSetup | None,
) -> TrialOutcome:
    """Score a played trajectory; the outcome the store keeps."""
    failed = trajectory.termination == "infrastructure_error"
    error = trajectory.error if failed else None
    score: ScenarioScore | None = None
    if not failed and setup is not None:
        try:
            scorer = work.catalog.scorer(scenario.evaluation)
            score = score_trajectory(setup, trajectory, scorer, work.context)
        except Exception as exc:  # a scorer bug must not sink the other scenarios
            logger.exception("%s trial %d: scoring failed", scenario.id, trial)
            failed, error = True, f"scoring failed: {exc!r}\n{traceback.format_exc()}"
    return TrialOutcome(
        scenario_id=scenario.id,
        trial=trial,
        trajectory=compact_exchanges(trajectory.model_dump(mode="json")),
        score=None if score is None else score.model_dump(mode="json"),
        failed=failed,
        error=error,
    )


async def play_trial(work: TrialWork, scenario: Scenario, trial: int) -> TrialOutcome:
    """Play and score one trial."""
    trajectory, setup = await play_only(work, scenario, trial)
    return score_only(work, scenario, trial, trajectory, setup)
