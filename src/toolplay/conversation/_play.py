"""What a mode is given to play one scenario, and what a mode is.

A mode (dynamic, ToolTalk's static, AutoDE's static, or a plugin's own) is a function from a
`PlayRequest` to a `Trajectory`, registered in the catalog as a `Mode`. `PlaySettings` are the
typed settings every mode may read; a mode ignores what does not concern it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from toolplay.messages import Trajectory
from toolplay.roles import Assistant, User
from toolplay.scenarios import ScenarioSetup

DEFAULT_MAX_CALLS_PER_TURN = 20
"""Tool calls an assistant may make in one static turn before the turn is cut (ToolTalk's
reference had no cap; its largest ground-truth turn has 7 calls)."""


class PlaySettings(BaseModel):
    """Settings of play that change results (part of a run's identity)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    system_prompt: str | None = Field(
        default=None,
        description="Replace the assistant's base system prompt (the scenario's time, "
        "location and user are still appended).",
    )
    max_calls_per_turn: int | None = Field(
        default=None,
        ge=1,
        description=f"Static modes: tool calls allowed per turn ({DEFAULT_MAX_CALLS_PER_TURN}).",
    )

    @property
    def calls_per_turn(self) -> int:
        """The static-mode call cap, default filled in."""
        return self.max_calls_per_turn or DEFAULT_MAX_CALLS_PER_TURN


@dataclass(frozen=True)
class PlayRequest:
    """One scenario trial to play: the resolved scenario, the two roles, the settings."""

    setup: ScenarioSetup
    assistant: Assistant
    user: User
    trial: int = 0
    settings: PlaySettings = field(default_factory=PlaySettings)
    augment: tuple[str, ...] = ()
    """Tool augmentations applied on top of the scenario's own `augmentation` (API use; a run
    folds `--augment` into the scenarios it selects instead)."""


PlayFunction = Callable[[PlayRequest], Awaitable[Trajectory]]


@dataclass(frozen=True)
class Mode:
    """A way of playing scenarios, as the catalog registers it."""

    name: str
    play: PlayFunction
    description: str = ""
