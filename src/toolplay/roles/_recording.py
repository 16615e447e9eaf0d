"""Recordings: an assistant that is a file of finished dialogues, read rather than played.

A published results file (AutoDE's `results/*.jsonl`) holds what an assistant did in every
dialogue and trial; nothing in it can be asked again. A role that serves such a file declares
itself a `Recording` (by subclassing it). A recording is a player of the run
(`toolplay.conversation.Player`): the run plan uses it in place of the mode playing the roles,
and asks it

1. before anything is written, `trials(scenario_ids, requested)`: how many trials the recording
   holds for these scenarios (it decides; a recording that cannot be scored, e.g. a dialogue
   without a record, is refused here with `RecordingError`, naming what is missing);
2. for each scenario trial, `play(setup, trial)`: the trajectory it records (`recorded`),
   which is then scored and stored like a played one (its `mode` is `recorded`; the run's mode
   names the method the file was made under).

A recording is never asked to `respond`: a mode that plays one gets an infrastructure error
saying so.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from toolplay.errors import InputError
from toolplay.faults import InfrastructureError
from toolplay.messages import Trajectory
from toolplay.roles._base import AssistantContext, AssistantTurn
from toolplay.scenarios import ScenarioSetup

RECORDED_MODE = "recorded"
"""`Trajectory.mode` of a trajectory read from a recording (toolplay did not play it)."""


class RecordingError(InputError):
    """A recording cannot serve a run (a scenario without a record, too few trials)."""


class Recording(ABC):
    """An assistant whose dialogues are already recorded (see the module docstring)."""

    name: str

    @abstractmethod
    def trials(self, scenario_ids: Sequence[str], requested: int) -> int:
        """How many trials of these scenarios to read (`requested`: what the run asked for).

        Raises:
            RecordingError: The recording cannot be scored for these scenarios, or holds
                fewer trials than requested.
        """

    @abstractmethod
    def recorded(self, setup: ScenarioSetup, trial: int) -> Trajectory:
        """The recorded trajectory of one scenario trial.

        Raises:
            InfrastructureError: The recording holds no such trial.
        """

    async def play(self, setup: ScenarioSetup, trial: int) -> Trajectory:
        """The recorded trajectory of one scenario trial (as a player of the run)."""
        return self.recorded(setup, trial)

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Never asked: a recording is read (`recorded`), not played."""
        raise InfrastructureError(
            f"{self.name} is a recording of finished dialogues: a run reads its trajectories "
            "(Recording.recorded); no mode can play it"
        )
