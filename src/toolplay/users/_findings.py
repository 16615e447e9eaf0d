"""What the user-error checks find, and what a check is.

A `UserCheck` is a named pure function over a trajectory and the user's briefing that returns
`UserError`s, each pointing at the message at fault with the evidence in words; its
`definition` is its glossary entry. The catalog holds the checks (`Catalog.add_user_check`; the
built-ins are `builtin_user_checks`), so a plugin adds its own the way the built-ins are added.
A trajectory's result (`UserErrors`) is stored with its score; a flagged trial is kept and
scored as played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from toolplay.messages import Trajectory
from toolplay.users._briefing import UserBriefing


class UserError(BaseModel):
    """One error of the simulated user, at one of its messages."""

    model_config = ConfigDict(frozen=True)

    kind: str = Field(description="The check that found it (its name), e.g. leaked_information.")
    message_index: int = Field(description="The message at fault (its index on the bus).")
    evidence: str = Field(description="Why, in one sentence.")
    values: list[str] = Field(
        default_factory=list, description="The values at fault as the user wrote them."
    )


class UserErrors(BaseModel):
    """The user-error checks' result for one trajectory (stored with its score)."""

    checked_messages: int = Field(
        description="User messages the simulator wrote (scripted and replayed lines are the "
        "scenario's, never checked); 0 for a scripted user."
    )
    errors: list[UserError] = Field(default_factory=list)

    @property
    def kinds(self) -> set[str]:
        """The kinds of error found."""
        return {e.kind for e in self.errors}


CheckFunction = Callable[[Trajectory, UserBriefing], list[UserError]]
"""A check: the trajectory and the user's briefing in, the errors it finds out."""


@dataclass(frozen=True)
class UserCheck:
    """A named user-error check with its glossary definition."""

    name: str
    check: CheckFunction
    definition: str
    method: str = "toolplay"
