"""The built-in user-error checks, as the catalog registers them, and running them.

Their definitions are the glossary's (`toolplay glossary`); each check's module docstring
says exactly what it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolplay.messages import Trajectory
from toolplay.scenarios import Scenario
from toolplay.users._briefing import (
    UserBriefing,
    UserFactsSource,
    briefing_of,
    model_messages,
    read_facts,
)
from toolplay.users._conduct_checks import loop, premature_end, role_confusion
from toolplay.users._facts_checks import invented_information, leaked_information, script_deviation
from toolplay.users._findings import UserCheck, UserErrors


def builtin_user_checks() -> list[UserCheck]:
    """The six built-in checks, in the order their errors are listed."""
    return [
        UserCheck(
            "invented_information",
            invented_information,
            "A user message states a concrete value (phone number, email, id, date, time, "
            "weekday, amount, number, name) that appears nowhere in the user's briefing (goal, "
            "knowledge, script, demonstrations) or in what it was told before.",
        ),
        UserCheck(
            "leaked_information",
            leaked_information,
            "A user message states a fact its briefing says to withhold (e.g. ToolSandbox's "
            '"do not leak this information": the answer the assistant must find with its '
            "tools) before the assistant stated it.",
        ),
        UserCheck(
            "script_deviation",
            script_deviation,
            "A user message states, about a slot its script fixes (AutoDE's API-call label), a "
            "value of that slot's kind (a name, for a name slot) that is not the script's and "
            "that it was never told; it is also counted as invented information.",
        ),
        UserCheck(
            "premature_end",
            premature_end,
            "The user ends the conversation while the assistant's last message asks it "
            "something (not a closing 'anything else?') or announces an action not yet "
            "reported.",
        ),
        UserCheck(
            "role_confusion",
            role_confusion,
            "A user message is written as the assistant would write it: offers help, calls "
            "itself an AI or assistant, refuses service, reports actions done for the user, or "
            "writes a tool call.",
        ),
        UserCheck(
            "loop",
            loop,
            "An empty user message, or one that repeats an earlier one of the user's (near word "
            "for word; a short one only in an exchange that repeats exactly).",
        ),
    ]


def check_user(
    trajectory: Trajectory, briefing: UserBriefing, checks: Sequence[UserCheck]
) -> UserErrors:
    """Run `checks` over one trajectory: the errors in message order, then by check order.

    A trajectory in which no simulator spoke (a scripted user, a replayed reference) has
    nothing to check: no check runs.
    """
    written = len(model_messages(trajectory, briefing))
    if not written and trajectory.termination != "user_ended":
        return UserErrors(checked_messages=0)
    order = {check.name: position for position, check in enumerate(checks)}
    errors = [error for check in checks for error in check.check(trajectory, briefing)]
    errors.sort(key=lambda e: (e.message_index, order.get(e.kind, len(order))))
    return UserErrors(checked_messages=written, errors=errors)


@dataclass(frozen=True)
class UserChecking:
    """The checks and fact sources a run applies (the catalog's), ready to use.

    Attributes:
        checks: The registered checks, in order.
        sources: The registered readers of `UserFacts`.
    """

    checks: tuple[UserCheck, ...] = ()
    sources: tuple[UserFactsSource, ...] = ()

    def briefing(self, scenario: Scenario) -> UserBriefing:
        """What `scenario`'s user was given, with every source's facts."""
        return briefing_of(scenario, read_facts(scenario, self.sources))

    def check(self, scenario: Scenario, trajectory: Trajectory) -> UserErrors:
        """Every check over one trajectory of `scenario`."""
        return check_user(trajectory, self.briefing(scenario), self.checks)
