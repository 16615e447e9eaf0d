"""The lines of a trajectory file (`trajectories/<scenario>.t<trial>.jsonl`), as typed records.

A file holds one `header` line (the trajectory's fields without its messages and changes, plus
the roles that played it), one `message` line per message, one `change` line per world change
and, when it was scored, one `score` line. `TrajectoryLine` is published as JSON Schema
(`toolplay schema trajectory-line`) so other tools can read the files without toolplay.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from toolplay.messages import Message, ScenarioInfo, TerminationReason, Usage, WorldChange
from toolplay.scoring import ScenarioScore


class HeaderLine(BaseModel):
    """The first line: what was played, by whom, and how it ended."""

    type: Literal["header"]
    scenario_id: str
    trial: int = 0
    termination: TerminationReason
    error: str | None = None
    usage: Usage = Field(default_factory=Usage)
    assistant: str = ""
    user: str = ""
    mode: str = "dynamic"
    tool_names: dict[str, str] = Field(default_factory=dict)
    scenario: ScenarioInfo | None = None
    roles: dict[str, Any] | None = Field(
        default=None, description="Each role's name and public settings (never a key)."
    )
    exchange_format: int | None = Field(
        default=None,
        description="2: model exchanges stored once per message (a request's leading "
        "messages shared with the previous request are left out, see `previous`/`prefix`); "
        "absent: every request whole.",
    )


class MessageLine(Message):
    """One message of the conversation, in order."""

    type: Literal["message"]


class ChangeLine(WorldChange):
    """One recorded change of the world."""

    type: Literal["change"]


class ScoreLine(ScenarioScore):
    """The score with its evidence (absent when the trial was not scored)."""

    type: Literal["score"]


TrajectoryLine = Annotated[
    HeaderLine | MessageLine | ChangeLine | ScoreLine, Field(discriminator="type")
]
"""One line of a trajectory file."""

TRAJECTORY_LINE: TypeAdapter[TrajectoryLine] = TypeAdapter(TrajectoryLine)
