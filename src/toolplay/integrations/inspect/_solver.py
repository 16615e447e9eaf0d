"""The solver: one toolplay conversation per Inspect sample, recorded in the sample.

The conversation is toolplay's own: the scenario's world and tools, the user, the mode's turn
taking and termination. Only the assistant's model calls go through Inspect (the model being
evaluated, `get_model()`). The epoch is the trial (epoch 1 is trial 0).

The finished trajectory goes into the sample three ways: whole into `state.store` (what the
scorer and `toolplay import-inspect` read), as chat messages into `state.messages` (what
`inspect view` shows, each message tagged with its bus fields), and its world changes and
termination as an info event of the transcript. A trial that ended in an infrastructure error
(the Inspect model failing after its retries, a user simulator failing, a crashing tool) is then
raised as the sample's error: like `toolplay run`, never scored, and `inspect eval-retry` plays
exactly those samples again.
"""

from __future__ import annotations

from inspect_ai.log import transcript
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from pydantic import JsonValue

from toolplay.conversation import PlayRequest
from toolplay.faults import InfrastructureError
from toolplay.integrations.inspect._convert import trajectory_messages
from toolplay.integrations.inspect._plan import TaskPlan
from toolplay.integrations.inspect._records import TRAJECTORY_KEY
from toolplay.integrations.inspect._roles import InspectAssistant
from toolplay.messages import Trajectory
from toolplay.runs import scenario_info


class TrialInfrastructureError(InfrastructureError):
    """A trial ended in an infrastructure error: the sample errs instead of scoring 0."""


@solver
def toolplay_play(plan: TaskPlan) -> Solver:
    """Play the sample's scenario with toolplay, the evaluated model as the assistant."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        scenario = plan.scenario(state.sample_id)
        model = get_model()
        user = plan.user()
        request = PlayRequest(
            plan.catalog.setup(scenario),
            InspectAssistant(model),
            user,
            state.epoch - 1,
            plan.selection.play,
            presentation=plan.presentation,
        )
        try:
            trajectory = await plan.mode.play(request)
        finally:
            close = getattr(user, "aclose", None)
            if close is not None:
                await close()
        trajectory = trajectory.model_copy(update={"scenario": scenario_info(scenario)})
        record(state, trajectory, str(model))
        if trajectory.termination == "infrastructure_error":
            raise TrialInfrastructureError(
                f"{scenario.id} trial {trajectory.trial}: infrastructure error, not scored: "
                f"{trajectory.error}"
            )
        return state

    return solve


def record(state: TaskState, trajectory: Trajectory, model: str) -> None:
    """Put the trajectory into the sample (see the module docstring)."""
    state.store.set(TRAJECTORY_KEY, trajectory.model_dump(mode="json"))
    state.messages = trajectory_messages(trajectory.messages)
    last = next(
        (m.content for m in reversed(trajectory.messages) if m.sender == "assistant" and m.content),
        "",
    )
    state.output = ModelOutput.from_content(model=model, content=last or "")
    transcript().info(
        {
            "termination": trajectory.termination,
            "error": trajectory.error,
            "mode": trajectory.mode,
            "user": trajectory.user,
            "tool_names": dict[str, JsonValue](trajectory.tool_names),
            "world_changes": [c.model_dump(mode="json") for c in trajectory.changes],
        },
        source="toolplay",
    )
