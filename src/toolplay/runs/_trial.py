"""One scenario trial, played and scored: the unit of work every executor runs.

`play_trial` is what the local executor runs in the event loop and what a Ray worker runs in
its own process; both hand back a `TrialOutcome` of plain JSON data, so the one writer of the
store (the driver) persists it the same way wherever it was made. The trajectory comes from
the run's player (the mode playing the roles, or a recording read). A harness bug while
playing ends the trial as an infrastructure error with its traceback; a scorer that raises
ends it as a scorer failure (`scorer_failure`), the same as `toolplay score` reports it: both
are stored as errors (never scores), and resume plays them again.
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass
from typing import Any

from toolplay.catalog import Catalog
from toolplay.conversation import Player
from toolplay.messages import ScenarioInfo, Trajectory, compact_exchanges
from toolplay.runs._dump import trajectory_json
from toolplay.scenarios import Scenario, ScenarioSetup
from toolplay.scoring import ScenarioScore, Scorer, ScoringContext, score_trajectory

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
    """What playing and scoring a trial needs, resolved once per run (or per worker) from its
    plan: the catalog (setups, scorers), who gives the trajectories, the mode's name and the
    user's (for the record of a trial the harness could not play) and the scoring context.
    """

    catalog: Catalog
    player: Player
    mode_name: str
    user_name: str
    context: ScoringContext


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
        trajectory = await work.player.play(setup, trial)
    except Exception as exc:  # a harness bug: recorded, retried on resume
        logger.exception("%s trial %d: playing failed", scenario.id, trial)
        failure = harness_failure(
            scenario,
            trial,
            work.mode_name,
            work.player.name,
            work.user_name,
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
        scorer = work.catalog.scorer(scenario.evaluation)
        score, error = score_or_failure(scorer, setup, trajectory, work.context)
        failed = score is None
    return TrialOutcome(
        scenario_id=scenario.id,
        trial=trial,
        trajectory=compact_exchanges(trajectory_json(trajectory)),
        score=None if score is None else score.model_dump(mode="json"),
        failed=failed,
        error=error,
    )


SCORER_FAILED = "scorer {name!r} failed"
"""How a stored error says the scorer failed on the trial (a bug in the scorer, not an
infrastructure error): `toolplay run` and `toolplay score` report it alike."""


def scorer_failure(error: str | None) -> bool:
    """Whether a stored error is a scorer's failure (see `score_or_failure`)."""
    return error is not None and error.startswith("scorer ") and " failed: " in error


def score_or_failure(
    scorer: Scorer, setup: ScenarioSetup, trajectory: Trajectory, context: ScoringContext
) -> tuple[ScenarioScore | None, str | None]:
    """The trajectory's score, or None and the scorer's failure (message and traceback).

    A scorer that raises is a bug in the scorer: it must not sink the other scenarios, and the
    trial is stored as an error that says so (`scorer_failure`), by `run` and `score` alike.
    """
    try:
        return score_trajectory(setup, trajectory, scorer, context), None
    except Exception as exc:
        scenario = setup.scenario
        logger.exception("%s trial %d: the scorer failed", scenario.id, trajectory.trial)
        what = SCORER_FAILED.format(name=scorer.name)
        return None, f"{what}: {exc!r}\n{traceback.format_exc()}"


async def play_trial(work: TrialWork, scenario: Scenario, trial: int) -> TrialOutcome:
    """Play and score one trial."""
    trajectory, setup = await play_only(work, scenario, trial)
    return score_only(work, scenario, trial, trajectory, setup)
