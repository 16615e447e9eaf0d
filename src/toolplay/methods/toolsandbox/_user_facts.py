"""What ToolSandbox's scenarios tell their simulated user to withhold.

The reference briefs its user with a goal whose sentences may end in "Do not leak this
information." after the fact the assistant is meant to find with its tools ("It should be
+10000000000. Do not leak this information."). That sentence is the withheld fact; a user that
states it hands the assistant the answer (`toolplay.users`, check `leaked_information`).
"""

from __future__ import annotations

import re

from toolplay.scenarios import Scenario
from toolplay.users import UserFacts, UserFactsSource

_MARK = re.compile(r"do not leak this information", re.I)
_SENTENCES = re.compile(r"(?<=[.!?])\s*")


def withheld_in(goal: str) -> tuple[str, ...]:
    """The sentences of `goal` that a "Do not leak this information." follows."""
    sentences = [s.strip() for s in _SENTENCES.split(goal) if s.strip()]
    return tuple(
        sentences[i - 1] for i, sentence in enumerate(sentences) if i > 0 and _MARK.search(sentence)
    )


def read_toolsandbox_facts(scenario: Scenario) -> UserFacts:
    """The withheld facts of a scenario briefed the ToolSandbox way (none for others)."""
    return UserFacts(withheld=withheld_in(scenario.user.goal or ""))


TOOLSANDBOX_FACTS = UserFactsSource(
    "toolsandbox",
    read_toolsandbox_facts,
    'Goal sentences followed by "Do not leak this information." are withheld facts.',
)
