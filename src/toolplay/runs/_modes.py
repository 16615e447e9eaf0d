"""How a scenario is played, by mode name. Modes other than `dynamic` register here."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from toolplay.messages import Trajectory
from toolplay.roles import Assistant, User
from toolplay.runtime import (
    DEFAULT_MAX_CALLS_PER_TURN,
    play_autode_static,
    play_dynamic,
    play_static,
)
from toolplay.scenarios import Scenario

PlayFunction = Callable[[Scenario, Assistant, User, int, dict[str, Any]], Awaitable[Trajectory]]
"""(scenario, assistant, user, trial, options) -> trajectory."""


async def _dynamic(
    scenario: Scenario, assistant: Assistant, user: User, trial: int, options: dict[str, Any]
) -> Trajectory:
    prompt = options.get("system_prompt")
    return await play_dynamic(
        scenario, assistant, user, trial=trial, base_prompt=prompt if prompt else None,
        augment=options.get("augment") or (),
    )


async def _static(
    scenario: Scenario, assistant: Assistant, user: User, trial: int, options: dict[str, Any]
) -> Trajectory:
    prompt = options.get("system_prompt")
    cap = options.get("max_calls_per_turn")
    if scenario.evaluation == "slots":  # AutoDE: one forced prediction after the history
        return await play_autode_static(
            scenario,
            assistant,
            trial=trial,
            base_prompt=prompt if prompt else None,
            augment=options.get("augment") or (),
            max_calls=int(cap) if cap else DEFAULT_MAX_CALLS_PER_TURN,
        )
    return await play_static(
        scenario,
        assistant,
        trial=trial,
        base_prompt=prompt if prompt else None,
        augment=options.get("augment") or (),
        max_calls_per_turn=int(cap) if cap else DEFAULT_MAX_CALLS_PER_TURN,
    )


MODES: dict[str, PlayFunction] = {"dynamic": _dynamic, "static": _static}
