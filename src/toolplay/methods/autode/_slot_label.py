"""The API-call label of a slot-filling scenario (AutoDE): which call the assistant should make.

`metadata["label"]` holds `name` and `arguments`, and optionally `accept` (other values counted
correct under lenient matching), `any_name` (the first call counts whatever its name: AutoDE
offers only the gold API and does not score the name) and `cleaning` (`strings`, AutoDE's: only
booleans and strings survive in a prediction; `json`: numbers, lists and objects too). Without
`metadata["label"]`, the label is the last call of the reference solution.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolplay.scenarios._model import Scenario

CLEANINGS = ("strings", "json")


@dataclass(frozen=True)
class SlotLabel:
    """The ground-truth call of a slots scenario and how a prediction is read against it."""

    name: str
    arguments: Mapping[str, Any]
    accept: Mapping[str, list[Any]] = field(default_factory=dict)
    any_name: bool = False
    cleaning: str = "strings"

    def is_scored(self, real_name: str) -> bool:
        """Whether a call to `real_name` is the call the label is compared with."""
        return self.any_name or real_name == self.name


def slot_label(scenario: Scenario) -> SlotLabel | None:
    """The scenario's label (see the module docstring), or None when it has none.

    Raises:
        ValueError: `metadata.label.cleaning` is not a known cleaning.
    """
    label = scenario.metadata.get("label")
    if isinstance(label, Mapping) and isinstance(label.get("name"), str):
        cleaning = str(label.get("cleaning", "strings"))
        if cleaning not in CLEANINGS:
            raise ValueError(
                f"{scenario.id}: metadata.label.cleaning is {cleaning!r}; known: {CLEANINGS}"
            )
        return SlotLabel(
            label["name"],
            dict(label.get("arguments") or {}),
            {k: list(v) for k, v in (label.get("accept") or {}).items()},
            bool(label.get("any_name", False)),
            cleaning,
        )
    for turn in reversed(scenario.reference):
        if turn.calls:
            call = turn.calls[-1]
            return SlotLabel(call.name, dict(call.arguments))
    return None
