"""What a model-driven user was given, and which of its messages it wrote itself.

A `UserBriefing` gathers what the checks may count as known to the user: the scenario's user
goal, knowledge boundary, script and demonstrations (`Scenario.user`), plus `UserFacts` that a
method knows about its own scenarios and registers with the catalog (`UserFactsSource`):
ToolSandbox's goal sentences marked "do not leak", AutoDE's slot values. The core never asks
which method a scenario belongs to; each source reads what it recognises and returns nothing
otherwise.

Only messages the simulator wrote are judged (`model_messages`): a line the scenario scripted
(the opening every model-driven user says verbatim, every line of a scripted user) and anything
replayed from the reference (static modes) is the scenario author's, never the user's error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolplay.messages import Message, Trajectory
from toolplay.scenarios import Scenario


@dataclass(frozen=True)
class UserFacts:
    """What a method knows about a scenario's user beyond its user side.

    Attributes:
        withheld: Facts the user knows but must not state: the answer the assistant is meant
            to find with its tools (ToolSandbox's "It should be X. Do not leak this
            information.").
        slots: The values the user's script fixes, by slot name (AutoDE's API-call label):
            stating one of them differently is a script deviation.
    """

    withheld: tuple[str, ...] = ()
    slots: Mapping[str, Any] = field(default_factory=dict)

    def merged(self, other: UserFacts) -> UserFacts:
        """Both sources' facts (`other`'s slot value wins where both name a slot)."""
        return UserFacts(
            withheld=tuple(dict.fromkeys((*self.withheld, *other.withheld))),
            slots={**self.slots, **other.slots},
        )


UserFactsReader = Callable[[Scenario], UserFacts]
"""Reads a scenario's `UserFacts` (empty facts for scenarios it does not recognise)."""


@dataclass(frozen=True)
class UserFactsSource:
    """A registered reader of `UserFacts` (`Catalog.add_user_facts`)."""

    name: str
    read: UserFactsReader
    description: str = ""


@dataclass(frozen=True)
class UserBriefing:
    """What a model-driven user was given about its scenario.

    Attributes:
        goal: The user's goal (the script, when the scenario gives no goal).
        knowledge: The knowledge boundary.
        script: The scripted lines (the first is said verbatim by a model-driven user).
        demonstrations: The scenario's demonstration dialogues, as text.
        facts: Withheld facts and slot values (`UserFacts`).
        reference_turns: How many user turns the reference solution has.
    """

    goal: str = ""
    knowledge: str = ""
    script: tuple[str, ...] = ()
    demonstrations: tuple[str, ...] = ()
    facts: UserFacts = field(default_factory=UserFacts)
    reference_turns: int = 0

    @property
    def texts(self) -> tuple[str, ...]:
        """Every text the user was briefed with (what it may state)."""
        slots = tuple(_slot_text(v) for v in self.facts.slots.values())
        return (
            self.goal,
            self.knowledge,
            *self.script,
            *self.demonstrations,
            *self.facts.withheld,
            *slots,
        )


def _slot_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return " ".join(_slot_text(v) for v in value.values())
    if isinstance(value, list | tuple):
        return " ".join(_slot_text(v) for v in value)
    return "" if value is None else str(value)


def briefing_of(scenario: Scenario, facts: UserFacts | None = None) -> UserBriefing:
    """The briefing of `scenario`'s user, with the facts the registered sources read."""
    side = scenario.user
    script = tuple(scenario.script)
    goal = side.goal or "\n".join(script) or scenario.description
    demos = tuple(
        "\n".join(str(m.get("content", "")) for m in demo.messages) for demo in side.demonstrations
    )
    return UserBriefing(
        goal=goal,
        knowledge=side.knowledge or "",
        script=script,
        demonstrations=demos,
        facts=facts or UserFacts(),
        reference_turns=sum(1 for turn in scenario.reference if turn.user is not None),
    )


def read_facts(scenario: Scenario, sources: Sequence[UserFactsSource]) -> UserFacts:
    """Every source's facts about `scenario`, merged in registration order."""
    facts = UserFacts()
    for source in sources:
        facts = facts.merged(source.read(scenario))
    return facts


def user_messages(trajectory: Trajectory) -> list[Message]:
    """The user's messages to the assistant (its `end_conversation` call left out)."""
    return [
        m
        for m in trajectory.messages
        if m.sender == "user" and m.recipient == "assistant" and m.content is not None
    ]


def model_messages(trajectory: Trajectory, briefing: UserBriefing) -> list[Message]:
    """The user messages a simulator wrote (see the module docstring).

    The k-th user message is the script's when it is the script's k-th line word for word.
    """
    out = []
    for position, message in enumerate(user_messages(trajectory)):
        if message.from_reference:
            continue
        if position < len(briefing.script) and message.content == briefing.script[position]:
            continue
        out.append(message)
    return out
