"""Trajectories generated from a minefield that should trip it (validation and tests).

A minefield is an event that must not happen; the reference solution never makes it happen, so
validating the solution cannot show that the minefield can fire at all. (Half of the exported
ToolSandbox minefields once could not: they looked at the content of the assistant's message to
the environment, which is empty for a tool call.) For each minefield this module writes
candidate trajectories from the minefield itself, as reference solutions the oracle plays:

- a `tool_call` constraint: a call of the tool with the targeted arguments, its other required
  arguments filled from the scenario (its solution's calls, its world, the clock);
- a `message` to the environment: a call of the tool its content names (the reference's bus
  holds the tool's name in the call's text);
- a reply (`message` to the user): that reply;
- `state` / `added` / `removed` / `updated`: a call of each offered tool that writes the table,
  with arguments taken from the target rows;

each tried as it is and after turning on what the device may need (low-battery mode off, then
cellular, wifi and location service on). `toolplay validate` plays them and reports a minefield
none of them trips; the tests play them over every exported minefield and check the score is 0.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from toolplay.methods.toolsandbox._evidence import MilestoneEvidence
from toolplay.scenarios import (
    ChangeConstraint,
    FlowConstraint,
    GuardrailConstraint,
    MessageConstraint,
    Milestone,
    ReferenceCall,
    ReferenceTurn,
    Scenario,
    ScenarioSetup,
    StateConstraint,
    ToolCallConstraint,
    milestone_ids,
)
from toolplay.scoring import ScenarioScore, VetoProbe, evidence_as

Call = tuple[str, dict[str, Any]]
VARIANTS = 3
"""Argument sets tried per tool: the i-th candidate value of each argument it needs, for
i < VARIANTS; then the first set with one more optional argument, each in turn."""
SWITCHES = {
    "low_battery_mode": "set_low_battery_mode_status",
    "cellular": "set_cellular_service_status",
    "wifi": "set_wifi_status",
    "location_service": "set_location_service_status",
}
"""Device switch -> its setter, in the order they are set (low-battery mode off first: it
blocks turning on the others)."""
_DEFAULTS: Mapping[str, Any] = {"string": "x", "integer": 1, "boolean": True}


def minefield_probes(setup: ScenarioSetup) -> list[VetoProbe]:
    """One probe per minefield of the scenario: candidate trajectories that should trip it."""
    scenario = setup.scenario
    ids = milestone_ids(scenario.minefields)
    probes = []
    for name, minefield in zip(ids, scenario.minefields, strict=True):
        plans, reason = _plans(setup, minefield)
        first = scenario.user.script[0] if scenario.user.script else None
        if first is None and plans:
            plans, reason = [], "the scenario has no scripted first message to open with"
        candidates = [_candidate(scenario, first, calls, reply) for calls, reply in plans]
        probes.append(
            VetoProbe(
                label=f"minefield {name!r}",
                candidates=candidates,
                fired=_fired(name),
                reason=reason,
            )
        )
    return probes


def _fired(name: str) -> Any:
    def fired(score: ScenarioScore) -> bool:
        evidence = evidence_as(score.evidence, MilestoneEvidence)
        if score.score != 0.0 or evidence is None:
            return False
        return any(m.id == name and m.similarity > 0.0 for m in evidence.minefield_mapping)

    return fired


def _candidate(scenario: Scenario, first: str | None, calls: list[Call], reply: str) -> Scenario:
    turn = ReferenceTurn(
        user=first,
        calls=[ReferenceCall(name=n, arguments=a) for n, a in calls],
        reply=reply,
    )
    user = scenario.user.model_copy(update={"script": [first]})
    return scenario.model_copy(update={"reference": [turn], "user": user})


def _plans(setup: ScenarioSetup, minefield: Milestone) -> tuple[list[tuple[list[Call], str]], str]:
    """(candidate (calls, reply) pairs, why there are none)."""
    constraints = [c for c in minefield.constraints if not isinstance(c, GuardrailConstraint)]
    if any(isinstance(c, FlowConstraint) for c in constraints):
        return [], "a minefield with a `flow` constraint is not generated"
    calls = [c for c in constraints if isinstance(c, ToolCallConstraint)]
    sent = [c for c in constraints if isinstance(c, MessageConstraint)]
    to_env = [c for c in sent if (c.sender, c.recipient) == ("assistant", "environment")]
    replies = [c for c in sent if (c.sender, c.recipient) == ("assistant", "user")]
    tables = [c for c in constraints if isinstance(c, StateConstraint | ChangeConstraint)]
    if len(sent) != len(to_env) + len(replies):
        return [], "a message constraint between other roles than the assistant's"
    places = (1 if calls else 0) + (1 if to_env else 0) + (1 if replies else 0)
    if places > 1 or len(calls) > 1:
        return [], (
            "its constraints look at different messages (a tool result, the assistant's "
            "call, its reply), which no single message is"
        )
    reply = _text(replies[0].content) if replies else "Done."
    if replies and reply is None:
        return [], "its reply target is not a text"
    cores: list[list[Call]] = [[]]
    if calls:
        cores = [[call] for call in _tool_call_options(setup, calls[0], tables)]
    elif to_env:
        name = _text(to_env[0].content)
        if name is None:
            return [], "its message target is not a text"
        cores = [[(name, {})]]
    changes: list[list[Call]] = [[]]
    if tables and not calls:
        changes = [[call] for call in _table_calls(setup, tables)]
        if not changes:
            return [], "no offered tool writes the table(s) it looks at"
    plans: list[tuple[list[Call], str]] = []
    for prefix in ([], _switches_on(setup)):
        for change in changes:
            for core in cores:
                plan = (prefix + change + core, reply or "Done.")
                if plan not in plans:
                    plans.append(plan)
    return plans, ""


def _text(target: Any) -> str | None:
    value = literal(target)
    return value if isinstance(value, str) else None


def literal(target: Any) -> Any:
    """A value that meets a target (a literal, or a similarity spec's value)."""
    if isinstance(target, dict):
        for key in ("exact", "rouge", "contains", "close"):
            if key in target:
                return target[key]
        if "one_of" in target:
            return target["one_of"][0]
    return target


def _tool_call_options(
    setup: ScenarioSetup, constraint: ToolCallConstraint, tables: Sequence[Any]
) -> Iterator[Call]:
    rows = [row for c in tables for row in c.rows]
    for option in constraint.options():
        if constraint.outcome == "error":
            yield option.tool, {}
            continue
        yield from _calls(setup, option.tool, dict(option.arguments), rows)


def _table_calls(setup: ScenarioSetup, tables: Sequence[Any]) -> list[Call]:
    names = {c.table for c in tables}
    rows = [row for c in tables for row in c.rows]
    out: list[Call] = []
    for tool in setup.offered.names():
        if names & setup.offered[tool].meta.writes:
            out += [call for call in _calls(setup, tool, {}, rows) if call not in out]
    return out


def _calls(
    setup: ScenarioSetup, tool: str, targets: dict[str, Any], rows: list[dict[str, Any]]
) -> Iterator[Call]:
    """Argument sets for `tool`: targeted values first, the rest filled from the scenario."""
    if tool not in setup.registry:
        yield tool, {k: literal(v) for k, v in targets.items()}
        return
    parameters = setup.registry[tool].schema["function"]["parameters"]
    required = set(parameters.get("required", []))
    values: dict[str, list[Any]] = {}
    for name, spec in parameters.get("properties", {}).items():
        found = _values(setup, tool, name, spec.get("type"), targets, rows)
        if found:
            values[name] = found
    chosen = [n for n in values if n in required or n in targets or _in_rows(n, rows)]
    candidates = [
        {name: values[name][min(i, len(values[name]) - 1)] for name in chosen}
        for i in range(VARIANTS)
    ]
    candidates += [
        {**candidates[0], name: values[name][0]} for name in values if name not in chosen
    ]
    seen: list[dict[str, Any]] = []
    for arguments in candidates:
        if arguments not in seen:
            seen.append(arguments)
            yield tool, arguments


def _in_rows(name: str, rows: list[dict[str, Any]]) -> bool:
    return any(column == name or column.endswith("_" + name) for row in rows for column in row)


def _values(
    setup: ScenarioSetup,
    tool: str,
    name: str,
    kind: str | None,
    targets: dict[str, Any],
    rows: list[dict[str, Any]],
) -> list[Any]:
    """Candidate values of one argument, best first (targets, rows, solution, world, type)."""
    scenario = setup.scenario
    found: list[Any] = []
    anything = name in targets and _any_number(targets[name])
    if name in targets and not anything:
        found.append(literal(targets[name]))
    for row in rows:
        for column, target in row.items():
            if column == name or column.endswith("_" + name):
                found.append(literal(target))
    solution = [call for turn in scenario.reference for call in turn.calls]
    found += [c.arguments[name] for c in solution if c.name == tool and name in c.arguments]
    found += [c.arguments[name] for c in solution if c.name != tool and name in c.arguments]
    for table_rows in scenario.world.tables.values():
        found += [row[name] for row in table_rows if name in row]
    if kind == "number":
        found.append(setup.new_world().clock.timestamp())
    if anything:  # "any number": a value from the scenario is likelier to be valid
        found.append(literal(targets[name]))
    elif kind is not None and kind in _DEFAULTS:
        found.append(_DEFAULTS[kind])
    unique: list[Any] = []
    for value in found:
        if value is not None and value not in unique:
            unique.append(value)
    return unique


def _any_number(target: Any) -> bool:
    """A `close` target whose tolerance admits every number (the reference's infinite one)."""
    return isinstance(target, dict) and "close" in target and target.get("tolerance", 0) >= 1e300


def _switches_on(setup: ScenarioSetup) -> list[Call]:
    """Calls that leave low-battery mode off and cellular, wifi and location service on."""
    tables = setup.scenario.world.tables.get("settings") or []
    state = dict(tables[0]) if tables else {}
    calls: list[Call] = []
    for switch, setter in SWITCHES.items():
        wanted = switch != "low_battery_mode"
        if switch in state and bool(state[switch]) != wanted:
            calls.append((setter, {"on": wanted}))
    return calls
