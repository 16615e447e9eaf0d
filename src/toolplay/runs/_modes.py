"""How a scenario is played, by mode name. Modes other than `dynamic` register here.

Scenarios with `metadata.protocol = "autode"` (the official AutoDE benchmark) are played under
AutoDE's protocol in both modes (`toolplay.runtime._autode_protocol`), with the run options
`max_rounds`, `stop_marker` and `submit_text`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from toolplay.messages import Trajectory
from toolplay.roles import Assistant, User
from toolplay.runtime import (
    DEFAULT_MAX_CALLS_PER_TURN,
    DEFAULT_MAX_ROUNDS,
    STOP_MARKER,
    is_protocol_scenario,
    play_autode_protocol,
    play_autode_static,
    play_dynamic,
    play_static,
)
from toolplay.scenarios import Scenario

PlayFunction = Callable[[Scenario, Assistant, User, int, dict[str, Any]], Awaitable[Trajectory]]
"""(scenario, assistant, user, trial, options) -> trajectory."""


async def _protocol(
    scenario: Scenario,
    assistant: Assistant,
    user: User,
    trial: int,
    options: dict[str, Any],
    static: bool,
) -> Trajectory:
    marker = options.get("stop_marker")
    submit = options.get("submit_text")
    return await play_autode_protocol(
        scenario,
        assistant,
        user,
        trial=trial,
        static=static,
        base_prompt=options.get("system_prompt") or None,
        augment=options.get("augment") or (),
        max_rounds=int(options.get("max_rounds") or DEFAULT_MAX_ROUNDS),
        stop_marker=STOP_MARKER if marker is None else str(marker),
        submit_text=str(submit) if submit else None,
    )


async def _dynamic(
    scenario: Scenario, assistant: Assistant, user: User, trial: int, options: dict[str, Any]
) -> Trajectory:
    if is_protocol_scenario(scenario):
        return await _protocol(scenario, assistant, user, trial, options, static=False)
    prompt = options.get("system_prompt")
    return await play_dynamic(
        scenario, assistant, user, trial=trial, base_prompt=prompt if prompt else None,
        augment=options.get("augment") or (),
    )


async def _static(
    scenario: Scenario, assistant: Assistant, user: User, trial: int, options: dict[str, Any]
) -> Trajectory:
    if is_protocol_scenario(scenario):
        return await _protocol(scenario, assistant, user, trial, options, static=True)
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
