"""Milestones of a world-state variant: restore milestones, ordered before what needs them.

A variant keeps every milestone and minefield of its base and adds one milestone per setting
its fixes restore: `variant_low_battery_off` or `variant_<setting>_on` (a `state` constraint
on `settings`; a switch's milestone comes after the low-battery one). Each base
milestone that observes a call depending on a fix gets that fix's restore milestones in its
`after`, and no implicit guardrail on `settings` (the variant's own setter calls are the
sanctioned change there, checked by the restore milestones; the reference's variant scenarios
exclude the settings table the same way). The minefields lose that guardrail too: the setter
calls a variant needs change settings, and a minefield still guarding them could never fire
once the assistant made them (e.g. "texted the wrong person" after turning cellular on), which
`toolplay validate`'s minefield probes report. A milestone *observes* a call when

- one of its `tool_call` alternatives matches the call (tool and literal arguments), or a
  `flow` names the call's tool (`from_tool` or `tool`), or
- it constrains (state/added/removed/updated) a table the call changes,

and no base call before the fix does the same (then the milestone may be about that earlier
call, and no edge is added). The calls depending on fix k are those that behave differently
when fix k and every later fix are left out, but not when only the later ones are.

The scorer is not used here (scenarios sit below scoring); `toolplay validate` checks every
generated variant: the oracle scores 1.0, and no minefield fires.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolplay.scenarios._milestone_spec import (
    ChangeConstraint,
    FlowConstraint,
    GuardrailConstraint,
    Milestone,
    StateConstraint,
    ToolAlternative,
    ToolCallConstraint,
    milestone_ids,
    similarity_spec,
)
from toolplay.scenarios._model import Scenario
from toolplay.scenarios._state_variants import (
    BATTERY,
    BY_COLUMN,
    SETTINGS,
    Derivation,
    Step,
    VariantSkipped,
)


def check_sound(base: Scenario, derivation: Derivation) -> None:
    """Refuse a variant whose base milestones or minefields would judge the inserted calls.

    Raises:
        VariantSkipped: (unsound) naming the milestone and the reason.
    """
    setters = {BY_COLUMN[c].setter for fix in derivation.fixes for c, _ in fix.settings}
    for kind, items in (("milestone", base.milestones), ("minefield", base.minefields)):
        for name, item in zip(milestone_ids(items), items, strict=True):
            for constraint in item.constraints:
                if isinstance(constraint, GuardrailConstraint) and constraint.table == SETTINGS:
                    raise VariantSkipped(
                        f"{kind} {name!r} has a guardrail on settings", unsound=True
                    )
                if kind == "minefield" and _touches_settings(constraint, setters):
                    raise VariantSkipped(
                        f"minefield {name!r} watches the settings the variant restores",
                        unsound=True,
                    )
    first = derivation.fixes[0].position
    for name, item in zip(milestone_ids(base.milestones), base.milestones, strict=True):
        for constraint in item.constraints:
            if isinstance(constraint, StateConstraint | ChangeConstraint) and (
                constraint.table == SETTINGS
            ):
                columns = {column for row in constraint.rows for column in row}
                bad = _differing_columns(derivation, columns, first)
                if bad:
                    raise VariantSkipped(
                        f"milestone {name!r} checks {sorted(bad)}, which the variant leaves "
                        "different from the base",
                        unsound=True,
                    )


def _touches_settings(constraint: Any, setters: set[str]) -> bool:
    if isinstance(constraint, StateConstraint | ChangeConstraint | GuardrailConstraint):
        return bool(constraint.table == SETTINGS)
    if isinstance(constraint, ToolCallConstraint):
        return any(option.tool in setters for option in constraint.options())
    if isinstance(constraint, FlowConstraint):
        return constraint.tool in setters or constraint.from_tool in setters
    return False


def _differing_columns(derivation: Derivation, columns: set[str], first: int) -> set[str]:
    """Columns whose value after a base call (from the first fix on) differs from the base."""
    bad: set[str] = set()
    for index, step in enumerate(derivation.steps):
        if step.base is None or step.base < first:
            continue
        ours = derivation.variant.settings_after[index]
        theirs = derivation.base.settings_after[step.base]
        bad |= {c for c in columns if ours.get(c) != theirs.get(c)}
    return bad


def adjusted_milestones(base: Scenario, derivation: Derivation) -> list[Milestone]:
    """The base milestones with explicit ids and `after`, plus the restore milestones."""
    ids = milestone_ids(base.milestones)
    afters: list[list[str]] = []
    for i, milestone in enumerate(base.milestones):
        default = [ids[i - 1]] if i > 0 else []
        afters.append(list(milestone.after) if milestone.after is not None else default)
    taken = set(ids)

    def fresh(stem: str) -> str:
        name = stem
        while name in taken:
            name += "_"
        taken.add(name)
        return name

    restore: dict[str, str] = {}
    added: list[Milestone] = []
    for fix in derivation.fixes:
        for column, _ in fix.settings:
            if column in restore:
                continue
            value = column != BATTERY
            state = "on" if value else "off"
            restore[column] = fresh(f"variant_{BY_COLUMN[column].label}_{state}")
            after = [restore[BATTERY]] if value and BATTERY in restore else []
            added.append(
                Milestone(
                    id=restore[column],
                    description=f"{column.replace('_', ' ')} turned {state} (world-state variant)",
                    after=after,
                    constraints=[
                        StateConstraint(kind="state", table=SETTINGS, rows=[{column: value}])
                    ],
                )
            )
    new_edges: list[set[str]] = [set() for _ in base.milestones]
    for k, dependent in enumerate(dependent_calls(derivation)):
        fix = derivation.fixes[k]
        needs = [restore[c] for c in fix.switches] or [restore[BATTERY]]
        for i, milestone in enumerate(base.milestones):
            if _observes(milestone, dependent, fix.position, derivation):
                new_edges[i] |= {n for n in needs if n not in afters[i]}
                afters[i] += [n for n in needs if n not in afters[i]]
    graph = {ids[i]: afters[i] for i in range(len(ids))}
    graph.update({m.id: m.after or [] for m in added if m.id is not None})
    for i in range(len(ids)):  # drop added edges already implied through another one
        afters[i] = [
            n
            for n in afters[i]
            if n not in new_edges[i] or not any(n in _ancestors(graph, a) for a in afters[i])
        ]
    kept = [
        m.model_copy(
            update={
                "id": ids[i],
                "after": afters[i],
                "guardrail_exclude": sorted({*m.guardrail_exclude, SETTINGS}),
            }
        )
        for i, m in enumerate(base.milestones)
    ]
    return kept + added


def adjusted_minefields(base: Scenario) -> list[Milestone]:
    """The base minefields without an implicit guardrail on settings (module docstring)."""
    return [
        m.model_copy(update={"guardrail_exclude": sorted({*m.guardrail_exclude, SETTINGS})})
        for m in base.minefields
    ]


def _ancestors(graph: dict[str, list[str]], name: str) -> set[str]:
    """Every milestone that must come no later than `name` (the DAG is acyclic)."""
    found: set[str] = set()
    todo = list(graph.get(name, []))
    while todo:
        current = todo.pop()
        if current not in found:
            found.add(current)
            todo += graph.get(current, [])
    return found


def dependent_calls(derivation: Derivation) -> list[set[int]]:
    """Per fix, the base call positions that behave differently without it (docstring)."""
    full = _outcomes_by_base(derivation.steps, derivation.variant.outcomes)
    affected = []
    for steps, played in derivation.broken:
        broken = _outcomes_by_base(steps, played.outcomes)
        affected.append({p for p, outcome in broken.items() if outcome != full[p]})
    return [
        calls - (affected[k + 1] if k + 1 < len(affected) else set())
        for k, calls in enumerate(affected)
    ]


def _outcomes_by_base(steps: list[Step], outcomes: list[Any]) -> dict[int, Any]:
    return {s.base: o for s, o in zip(steps, outcomes, strict=True) if s.base is not None}


def _observes(milestone: Milestone, calls: set[int], before: int, derivation: Derivation) -> bool:
    positions = {s.base: i for i, s in enumerate(derivation.steps) if s.base is not None}
    earlier = [positions[p] for p in range(before)]
    later = [positions[p] for p in sorted(calls)]
    for constraint in milestone.constraints:
        for test in _tests(constraint, derivation):
            if any(test(i) for i in later) and not any(test(i) for i in earlier):
                return True
    return False


def _tests(constraint: Any, derivation: Derivation) -> list[Callable[[int], bool]]:
    """Predicates on a step index: does this constraint look at that call?"""
    steps, tables = derivation.steps, derivation.variant.tables
    if isinstance(constraint, ToolCallConstraint):
        options = constraint.options()
        return [lambda i: any(_call_matches(o, steps[i]) for o in options)]
    if isinstance(constraint, FlowConstraint):
        tools = {t for t in (constraint.from_tool, constraint.tool) if t is not None}
        return [lambda i: steps[i].call.name in tools] if tools else []
    if isinstance(constraint, StateConstraint | ChangeConstraint):
        table = constraint.table
        return [lambda i: table in tables[i]]
    return []


def _call_matches(option: ToolAlternative, step: Step) -> bool:
    """Does the reference call match a `tool_call` alternative (tool and arguments)?"""
    if option.tool != step.call.name:
        return False
    return all(
        _value_matches(target, step.call.arguments.get(name))
        for name, target in option.arguments.items()
    )


def _value_matches(target: Any, value: Any) -> bool:
    spec = similarity_spec(target)
    if spec is None or "exact" in spec:
        expected = target if spec is None else spec["exact"]
        return bool(expected == value and isinstance(expected, bool) == isinstance(value, bool))
    if "one_of" in spec:
        return any(_value_matches(option, value) for option in spec["one_of"])
    if "close" in spec:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        return bool(abs(value - spec["close"]) <= spec.get("tolerance", 1e-6))
    if "contains" in spec:
        if spec.get("ignore_case", False):
            return str(spec["contains"]).casefold() in str(value).casefold()
        return str(spec["contains"]) in str(value)
    return True  # rouge: a similarity, not a test; any text may match
