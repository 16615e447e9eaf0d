"""What a mode is given to play one scenario, and what a mode is.

A mode (dynamic, ToolTalk's static, AutoDE's static, or a plugin's own) is a function from a
`PlayRequest` to a `Trajectory`, registered in the catalog as a `Mode`. `PlaySettings` are the
typed settings every mode may read; a mode ignores what does not concern it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from toolplay.messages import Trajectory
from toolplay.roles import Assistant, Presentation, User
from toolplay.scenarios import ScenarioSetup

DEFAULT_MAX_CALLS_PER_TURN = 20
"""Tool calls an assistant may make in one static turn before the turn is cut (ToolTalk's
reference had no cap; its largest ground-truth turn has 7 calls)."""

DEFAULT_MAX_ROUNDS = 8
"""Assistant answers AutoDE allows before a dialogue without its call fails (`Round limit
reached`)."""

DEFAULT_STOP_MARKER = "[DONE]"
"""What the reference's prompts tell an assistant to write when the API cannot serve the user."""


class PlaySettings(BaseModel):
    """Settings of play that change results (part of a run's identity)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

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
    max_calls_per_turn: int | None = Field(
        default=None,
        ge=1,
        description=f"Static modes: tool calls allowed per turn ({DEFAULT_MAX_CALLS_PER_TURN}).",
    )
    max_rounds: int | None = Field(
        default=None,
        ge=1,
        description="AutoDE protocol: assistant answers allowed before a dialogue without its "
        f"call fails with round_limit ({DEFAULT_MAX_ROUNDS}).",
    )
    stop_marker: str | None = Field(
        default=None,
        description="AutoDE protocol: text by which the assistant ends the dialogue without a "
        f"call ({DEFAULT_STOP_MARKER}; empty: none).",
    )
    submit_text: str | None = Field(
        default=None,
        description="AutoDE protocol, static: text appended to the last user turn before the "
        "forced call (e.g. the reference's 'SUBMIT API'; default none).",
    )

    @property
    def prompt_parts(self) -> tuple[str | None, bool]:
        """(the run's own base prompt, whether to append the scenario's context)."""
        return self.system_prompt, self.prompt_context

    @property
    def calls_per_turn(self) -> int:
        """The static-mode call cap, default filled in."""
        return self.max_calls_per_turn or DEFAULT_MAX_CALLS_PER_TURN

    @property
    def rounds(self) -> int:
        """The AutoDE protocol's round limit, default filled in."""
        return self.max_rounds or DEFAULT_MAX_ROUNDS

    @property
    def marker(self) -> str:
        """The AutoDE protocol's stop marker, default filled in (empty: none)."""
        return DEFAULT_STOP_MARKER if self.stop_marker is None else self.stop_marker


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
