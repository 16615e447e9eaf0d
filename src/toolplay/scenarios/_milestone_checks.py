"""Cross-checks of a milestone spec: ids, the `after` DAG, references, tables, tools.

Run at load time (from `check_against_catalog`) so a typo in a scenario file is an error
naming the file, the field and the reason, never a silently zero milestone.
"""

from __future__ import annotations

from typing import Any

from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._milestone_spec import (
    START,
    ChangeConstraint,
    FlowConstraint,
    GuardrailConstraint,
    Milestone,
    ToolCallConstraint,
    _Rows,
    milestone_edges,
    milestone_ids,
)


def check_milestone_spec(
    milestones: list[Milestone],
    tables: dict[str, tuple[str, ...]],
    tools: dict[str, set[str]],
    source: str,
    field: str,
) -> None:
    """Check ids, the DAG, references, tables, columns, tools and argument names.

    Args:
        milestones: The milestones (or minefields) of one scenario.
        tables: Table name -> columns of the scenario's domains.
        tools: Tool name -> argument names of the scenario's domains.
        source: File name for errors.
        field: Field path prefix for errors, e.g. "milestones".

    Raises:
        ScenarioError: naming the field and the reason.
    """
    ids = milestone_ids(milestones)
    seen: dict[str, int] = {}
    for i, name in enumerate(ids):
        if name == START:
            raise ScenarioError(source, f"{field}[{i}].id", f"{START!r} is reserved")
        if name in seen:
            raise ScenarioError(source, f"{field}[{i}].id", f"duplicate id {name!r}")
        seen[name] = i
    for i, milestone in enumerate(milestones):
        for name in milestone.after or []:
            if name not in seen:
                raise ScenarioError(
                    source, f"{field}[{i}].after", f"unknown id {name!r}; ids are {ids}"
                )
    ancestors = _ancestors(len(milestones), milestone_edges(milestones), source, field)
    for i, milestone in enumerate(milestones):
        where = f"{field}[{i}]"
        for label in ("guardrail_tables", "guardrail_exclude"):
            for name in getattr(milestone, label) or []:
                if name not in tables:
                    raise ScenarioError(
                        source,
                        f"{where}.{label}",
                        f"unknown table {name!r}; known: {sorted(tables)}",
                    )
        for c, constraint in enumerate(milestone.constraints):
            at = f"{where}.constraints[{c}]"
            refs: list[str] = []
            if isinstance(constraint, ChangeConstraint):
                refs = [constraint.reference]
            elif isinstance(constraint, GuardrailConstraint):
                refs = constraint.references()
            elif isinstance(constraint, FlowConstraint) and constraint.from_ is not None:
                refs = [constraint.from_]
            for ref in refs:
                if ref == START:
                    continue
                if ref not in seen:
                    raise ScenarioError(source, at, f"unknown milestone {ref!r}; ids are {ids}")
                if seen[ref] not in ancestors[i]:
                    raise ScenarioError(
                        source, at, f"{ref!r} must come before this milestone (add it to `after`)"
                    )
            _check_constraint(constraint, tables, tools, source, at)


def _check_constraint(
    constraint: Any,
    tables: dict[str, tuple[str, ...]],
    tools: dict[str, set[str]],
    source: str,
    at: str,
) -> None:
    if isinstance(constraint, _Rows | GuardrailConstraint) and constraint.table not in tables:
        raise ScenarioError(
            source,
            f"{at}.table",
            f"unknown table {constraint.table!r}; known: {sorted(tables)}",
        )
    if isinstance(constraint, _Rows):
        columns = set(tables[constraint.table])
        for r, row in enumerate(constraint.rows):
            extra = set(row) - columns
            if extra:
                raise ScenarioError(
                    source,
                    f"{at}.rows[{r}]",
                    f"unknown column(s) {sorted(extra)}; columns are {sorted(columns)}",
                )
    names: list[tuple[str, str, dict[str, Any]]] = []
    if isinstance(constraint, ToolCallConstraint):
        names = [(f"{at}.tool", o.tool, o.arguments) for o in constraint.options()]
    elif isinstance(constraint, FlowConstraint):
        for label, name in (("from_tool", constraint.from_tool), ("tool", constraint.tool)):
            if name is not None:
                args = (
                    {constraint.argument: None} if label == "tool" and constraint.argument else {}
                )
                names.append((f"{at}.{label}", name, args))
    for where, name, arguments in names:
        if name not in tools:
            raise ScenarioError(source, where, f"unknown tool {name!r}")
        extra = set(arguments) - tools[name]
        if extra:
            raise ScenarioError(
                source,
                where,
                f"tool {name!r} has no argument(s) {sorted(extra)}; "
                f"arguments are {sorted(tools[name])}",
            )


def _ancestors(k: int, edges: list[tuple[int, int]], source: str, field: str) -> list[set[int]]:
    preds: list[set[int]] = [set() for _ in range(k)]
    for a, b in edges:
        preds[b].add(a)
    result: list[set[int] | None] = [None] * k
    visiting: set[int] = set()

    def visit(m: int) -> set[int]:
        done = result[m]
        if done is not None:
            return done
        if m in visiting:
            raise ScenarioError(source, f"{field}[{m}].after", "the `after` links form a cycle")
        visiting.add(m)
        found: set[int] = set()
        for p in preds[m]:
            found |= {p} | visit(p)
        visiting.discard(m)
        result[m] = found
        return found

    return [visit(m) for m in range(k)]
