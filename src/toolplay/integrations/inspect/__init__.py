"""toolplay inside Inspect AI (`pip install toolplay[inspect]`): tasks, roles, log import.

The only package of toolplay that imports `inspect_ai`. Inspect finds the tasks through its
`inspect_ai` entry point (`_registry`): `inspect eval toolplay/sandbox`, `toolplay/tooltalk`,
`toolplay/autode`, `toolplay/suite`. The conversation, scoring and aggregation are toolplay's;
only the assistant's model calls (and a model-driven user's, through the `user` model role)
go through Inspect. `import_inspect_log` turns an Inspect log of these tasks into a toolplay run
folder (`toolplay import-inspect`), so `toolplay report` and `compare` read it.
"""

from toolplay.integrations.inspect._convert import (
    assistant_turn,
    inspect_messages,
    inspect_tools,
    trajectory_messages,
)
from toolplay.integrations.inspect._import import InspectImportError, import_inspect_log
from toolplay.integrations.inspect._plan import MODEL_USER, Selection, TaskPlan, build_plan
from toolplay.integrations.inspect._roles import USER_ROLE, InspectAssistant, InspectUser
from toolplay.integrations.inspect._scorer import toolplay_metrics, toolplay_score
from toolplay.integrations.inspect._solver import TrialInfrastructureError, toolplay_play
from toolplay.integrations.inspect._tasks import autode, plan_task, sandbox, suite, tooltalk

__all__ = [
    "MODEL_USER",
    "USER_ROLE",
    "InspectAssistant",
    "InspectImportError",
    "InspectUser",
    "Selection",
    "TaskPlan",
    "TrialInfrastructureError",
    "assistant_turn",
    "autode",
    "build_plan",
    "import_inspect_log",
    "inspect_messages",
    "inspect_tools",
    "plan_task",
    "sandbox",
    "suite",
    "tooltalk",
    "toolplay_metrics",
    "toolplay_play",
    "toolplay_score",
    "trajectory_messages",
]
