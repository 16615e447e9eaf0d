"""What AutoDE's user scripts fix: the slot values of the API-call label.

A user script states the values its user gives (AutoDE's user agent is told the gold call's
slots; toolplay's own scripts give them as the query and the follow-up facts). A slot value the
user's briefing states is fixed by the script: saying another is a script deviation
(`toolplay.users`, check `script_deviation`). Values the user is never told (internal ids the
assistant must look up) are not the script's to fix and are left out.
"""

from __future__ import annotations

from typing import Any

from toolplay.methods.autode._slot_label import slot_label
from toolplay.scenarios import Scenario
from toolplay.users import UserFacts, UserFactsSource, briefing_of


def _told(value: Any, texts: str) -> bool:
    if isinstance(value, bool) or value is None or isinstance(value, dict | list):
        return False
    return str(value).lower() in texts


def read_autode_facts(scenario: Scenario) -> UserFacts:
    """The slot values of a slots scenario's label that its user is told (none for others)."""
    if scenario.evaluation != "slots":
        return UserFacts()
    label = slot_label(scenario)
    if label is None:
        return UserFacts()
    texts = "\n".join(briefing_of(scenario).texts).lower()
    return UserFacts(slots={k: v for k, v in label.arguments.items() if _told(v, texts)})


AUTODE_FACTS = UserFactsSource(
    "autode",
    read_autode_facts,
    "The slot values of a slots scenario's API-call label that its user is told.",
)
