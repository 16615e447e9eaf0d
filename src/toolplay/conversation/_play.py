"""What a mode is given to play one scenario, and what a mode is.

A mode (dynamic, ToolTalk's static, AutoDE's, or a plugin's own) is a function from a
`PlayRequest` to a `Trajectory`, registered in the catalog as a `Mode`. `PlaySettings` are the
typed settings of play every mode may read (the assistant's base prompt, the simulated user's
briefing); a mode with knobs of its own declares them as a `Settings` model (`Mode.settings`)
and reads them with `request.settings.of(ItsSettings)` (see `toolplay.settings`): the core's
`static` mode its call cap (`StaticSettings`), AutoDE's protocol its round limit and stop
marker, a plugin's mode whatever it declares.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field

from toolplay.messages import Trajectory
from toolplay.roles import Assistant, Presentation, User
from toolplay.scenarios import ScenarioSetup
from toolplay.settings import Settings, SettingsBag

DEFAULT_MAX_CALLS_PER_TURN = 20
"""Tool calls an assistant may make in one static turn before the turn is cut (ToolTalk's
reference had no cap; its largest ground-truth turn has 7 calls)."""


class PlaySettings(SettingsBag):
    """Settings of play that change results (part of a run's identity).

    The extra fields are the modes' own (`Mode.settings`), read with `of`.
    """

    system_prompt: str | None = Field(
        default=None,
        description="Replace the assistant's base system prompt (default: the ToolSandbox "
        "reference's): the text, or (on the command line) a file holding it. AutoDE's protocol "
        "fills {{api_doc}} instead.",
    )
    prompt_context: bool = Field(
        default=False,
        description="Append the scenario's current time, location and user to the assistant's "
        "system prompt (toolplay's context-rich prompt; the reference gives none).",
    )
    user_simulator: Literal["toolsandbox", "toolplay"] = Field(
        default="toolsandbox",
        description="How a model-driven user is briefed: 'toolsandbox' as the reference does "
        "(its instruction, demonstrations as earlier chats, the default ones when the scenario "
        "has none); 'toolplay' with toolplay's own instructions and demonstrations in the "
        "prompt. A run's own user prompt (`user_prompt`) is always used the AutoDE way. "
        "(toolplay's own presentation; a method's reference presentation briefs its way.)",
    )
    user_prompt: str | None = Field(
        default=None,
        description="Instructions of a model-driven user in place of toolplay's: the text, or "
        "(on the command line) a file holding it, e.g. AutoDE's prompts/prompt_eng_user_v3.txt; "
        "the user's goal and knowledge follow them.",
    )

    @property
    def prompt_parts(self) -> tuple[str | None, bool]:
        """(the run's own base prompt, whether to append the scenario's context)."""
        return self.system_prompt, self.prompt_context


class StaticSettings(Settings):
    """The settings of static play (ToolTalk's `static`, AutoDE's `autode-static`)."""

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
    presentation: Presentation = field(default_factory=Presentation)
    """What the assistant is shown: its system text and tools (the run's presentation; the
    roles hold the same one). Without one, toolplay's own with no default prompt texts: give
    `Catalog.presentation(...)` to get the registered ones."""


PlayFunction = Callable[[PlayRequest], Awaitable[Trajectory]]


@dataclass(frozen=True)
class Mode:
    """A way of playing scenarios, as the catalog registers it."""

    name: str
    play: PlayFunction
    description: str = ""
    settings: type[Settings] | None = None
    """Its own knobs (read with `request.settings.of(...)`), reachable with `--option`."""
