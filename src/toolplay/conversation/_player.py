"""Who produces a run's trajectories: a mode playing roles, or a recording being read.

A `Player` gives the trajectory of one scenario trial, and says how many trials it can give.
`PlayedTrials` plays them: the run's mode with its assistant, user, settings and presentation.
A recording of finished dialogues (`toolplay.roles.Recording`, e.g. a published AutoDE results
file) is a player itself: it reads them. The run plan picks one of the two once, by the
protocol (`player_for`), and whoever runs trials (the runner, a Ray worker) only asks it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from toolplay.conversation._play import Mode, PlayRequest, PlaySettings
from toolplay.messages import Trajectory
from toolplay.roles import Assistant, Presentation, User
from toolplay.scenarios import ScenarioSetup

__all__ = ["PlayedTrials", "Player", "player_for"]


@runtime_checkable
class Player(Protocol):
    """Gives a run's trajectories, one scenario trial at a time."""

    @property
    def name(self) -> str:
        """The assistant's name (recorded with each trajectory)."""
        ...

    def trials(self, scenario_ids: Sequence[str], requested: int) -> int:
        """How many trials of these scenarios it gives (`requested`: what the run asked for).

        Raises:
            toolplay.roles.RecordingError: It cannot give these scenarios' trials.
        """
        ...

    async def play(self, setup: ScenarioSetup, trial: int) -> Trajectory:
        """The trajectory of one scenario trial."""
        ...


@dataclass(frozen=True)
class PlayedTrials:
    """Trials played by the run's mode with its roles."""

    mode: Mode
    assistant: Assistant
    user: User
    settings: PlaySettings = field(default_factory=PlaySettings)
    presentation: Presentation = field(default_factory=Presentation)

    @property
    def name(self) -> str:
        """The assistant's name."""
        return self.assistant.name

    def trials(self, scenario_ids: Sequence[str], requested: int) -> int:
        """As many as the run asks for."""
        return requested

    async def play(self, setup: ScenarioSetup, trial: int) -> Trajectory:
        """Play one scenario trial in the mode."""
        request = PlayRequest(
            setup,
            self.assistant,
            self.user,
            trial,
            self.settings,
            presentation=self.presentation,
        )
        return await self.mode.play(request)


def player_for(
    assistant: Assistant,
    user: User,
    mode: Mode,
    settings: PlaySettings,
    presentation: Presentation,
) -> Player:
    """The run's player: the assistant itself when it is one (a recording reads its
    trajectories), else the mode playing the roles.
    """
    if isinstance(assistant, Player):
        return assistant
    return PlayedTrials(mode, assistant, user, settings, presentation)
