"""Conversations for the user-error checks, written compactly, with their labels.

A case is a scenario (a built-in suite's scenario by id, or one written inline) and the
conversation as a list of messages, each one key: `user`, `assistant` (text), `call` (an
assistant tool call: name and arguments), `result` (the tool's answer, or `error`), `end`
(the user's `end_conversation`). A user message (or `end`) may carry `errors`: the kinds of
user error a person labelled it with. `build_trajectory` turns a case into the trajectory the
checks read (message 0 is the system prompt), so the labelled set (`labelled/*.yaml`) is
measured exactly as a run's trajectories are checked.

Real conversations (played with the packaged local model as the user) are converted to this
form by `scripts/user_check_cases.py`, keeping every text verbatim.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from toolplay.catalog import Catalog, build_catalog
from toolplay.messages import Message, TerminationReason, ToolCall, Trajectory
from toolplay.scenarios import Scenario

LABELLED = Path(__file__).with_name("labelled")
CATALOG: Catalog = build_catalog(installed=False)


@dataclass(frozen=True)
class Case:
    """One labelled conversation."""

    id: str
    kind: str
    """`real` (played with a model as the user) or `constructed` (written by hand)."""
    scenario: Scenario
    trajectory: Trajectory
    labels: frozenset[tuple[int, str]] = field(default_factory=frozenset)
    """(message index, kind) pairs a person labelled."""
    check: str | None = None
    """The check a constructed case was written for (its positives or its near misses)."""
    set_name: str = ""
    """The labelled file's name for its set (e.g. `real, development`)."""
    source: str = ""
    """How the set's conversations were made and labelled."""


@lru_cache(maxsize=8)
def _suite(name: str) -> dict[str, Scenario]:
    return {s.id: s for s in CATALOG.load_suite(name).scenarios}


def scenario_of(spec: dict[str, Any]) -> Scenario:
    """`{suite: NAME, id: ID}` or `{inline: {...scenario...}}`."""
    if "inline" in spec:
        data = {"world": {"domains": ["settings"]}, **spec["inline"]}
        return Scenario.model_validate(data)
    return _suite(str(spec["suite"]))[str(spec["id"])]


def build_trajectory(
    scenario_id: str, items: list[dict[str, Any]], termination: TerminationReason
) -> tuple[Trajectory, frozenset[tuple[int, str]]]:
    """The trajectory of a compact conversation, and its labels by message index."""
    messages = [Message(index=0, sender="system", recipient="assistant", visible_to=("assistant",))]
    labels: set[tuple[int, str]] = set()
    calls = 0

    def post(**fields: Any) -> int:
        messages.append(Message(index=len(messages), **fields))
        return len(messages) - 1

    for item in items:
        kinds = item.get("errors", [])
        if "user" in item:
            at = post(
                sender="user",
                recipient="assistant",
                content=str(item["user"]),
                visible_to=("user", "assistant"),
            )
        elif "assistant" in item:
            at = post(
                sender="assistant",
                recipient="user",
                content=str(item["assistant"]),
                visible_to=("user", "assistant"),
            )
        elif "call" in item:
            call = item["call"]
            arguments = call.get("arguments", {})
            text = arguments if isinstance(arguments, str) else json.dumps(arguments)
            calls += 1
            at = post(
                sender="assistant",
                recipient="environment",
                tool_calls=(ToolCall(id=f"c{calls}", name=call["name"], arguments=text),),
                visible_to=("assistant", "environment"),
            )
        elif "result" in item or "error" in item:
            at = post(
                sender="environment",
                recipient="assistant",
                tool_call_id=f"c{calls}",
                tool_name=item.get("tool"),
                result=item.get("result"),
                error=item.get("error"),
                visible_to=("assistant", "environment"),
            )
        elif "end" in item:
            end = ToolCall(id="end", name="end_conversation", arguments="{}")
            at = post(
                sender="user", recipient="environment", tool_calls=(end,), visible_to=("user",)
            )
        else:
            raise ValueError(f"{scenario_id}: unknown message {item!r}")
        labels |= {(at, str(kind)) for kind in kinds}
    trajectory = Trajectory(
        scenario_id=scenario_id,
        messages=messages,
        termination=termination,
        user="local",
        assistant="test",
    )
    return trajectory, frozenset(labels)


def case_of(data: dict[str, Any], kind: str, set_name: str = "", source: str = "") -> Case:
    """A case from its YAML form."""
    scenario = scenario_of(data["scenario"])
    trajectory, labels = build_trajectory(
        scenario.id, data["messages"], data.get("termination", "user_ended")
    )
    return Case(
        str(data["id"]), kind, scenario, trajectory, labels, data.get("check"), set_name, source
    )


def load_cases(path: Path) -> list[Case]:
    """The cases of one labelled file (`kind`, `name`, `source` and `cases`)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    name = str(data.get("name", data["kind"]))
    source = str(data["source"])
    return [case_of(item, str(data["kind"]), name, source) for item in data["cases"]]


def labelled_set() -> list[Case]:
    """Every labelled case shipped in `labelled/`."""
    return [case for path in sorted(LABELLED.glob("*.yaml")) for case in load_cases(path)]


@dataclass(frozen=True)
class CheckScore:
    """One check measured on the labelled set, at the level of (case, message) pairs."""

    kind: str
    labelled: int
    """User messages labelled with this kind (positives)."""
    flagged: int
    true_positives: int
    cases_with: int
    """Cases with at least one message labelled with this kind."""

    @property
    def precision(self) -> float | None:
        """Flagged messages that were labelled / flagged messages."""
        return self.true_positives / self.flagged if self.flagged else None

    @property
    def recall(self) -> float | None:
        """Labelled messages that were flagged / labelled messages."""
        return self.true_positives / self.labelled if self.labelled else None


def measure(cases: list[Case]) -> list[CheckScore]:
    """Precision and recall of every registered check over `cases`."""
    checking = CATALOG.user_checking()
    found = {c.id: checking.check(c.scenario, c.trajectory) for c in cases}
    scores = []
    for check in checking.checks:
        labelled = {(c.id, i) for c in cases for i, k in c.labels if k == check.name}
        flagged = {
            (c.id, e.message_index)
            for c in cases
            for e in found[c.id].errors
            if e.kind == check.name
        }
        scores.append(
            CheckScore(
                kind=check.name,
                labelled=len(labelled),
                flagged=len(flagged),
                true_positives=len(labelled & flagged),
                cases_with=len({case for case, _ in labelled}),
            )
        )
    return scores


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _table(cases: list[Case]) -> list[str]:
    lines = [
        "| check | labelled messages (conversations) | flagged | precision | recall |",
        "| --- | --- | --- | --- | --- |",
    ]
    for s in measure(cases):
        lines.append(
            f"| `{s.kind}` | {s.labelled} ({s.cases_with}) | {s.flagged} | "
            f"{_share(s.precision)} | {_share(s.recall)} |"
        )
    return lines


def markdown(cases: list[Case]) -> str:
    """The tables of the checks' precision and recall: on all of `cases`, then on
    each labelled set apart.
    """
    names = list(dict.fromkeys(c.set_name for c in cases))
    messages = sum(1 for c in cases for m in c.trajectory.messages if m.sender == "user")
    sets = ", ".join(f"{sum(c.set_name == n for c in cases)} {n}" for n in names)
    lines = [
        f"All {len(cases)} labelled conversations ({sets}; {messages} user turns):",
        "",
        *_table(cases),
    ]
    for name in names:
        part = [c for c in cases if c.set_name == name]
        lines += ["", f"{name} ({len(part)} conversations):", "", *_table(part)]
    return "\n".join(lines) + "\n"
