"""Evaluate one milestone constraint at a message index (with a reference index).

Each constraint of the spec compiles to a `ConstraintEval`: its similarity at index `i` given
the index `j` of its reference (-1 for the initial world), cached under a key that only
changes when what it looks at changes (table versions, or the message itself), so scoring a
long trajectory costs little more than the distinct snapshots it holds.

An assistant's message to the environment is seen as the reference's bus holds each of its
tool calls (`_calltext`): a `message` constraint on it compares with each call's text and takes
the best (the reference has one message per call).

Reply checks (`message`, and `flow` into a message) score as the reference's row similarity:
the geometric mean over the row's three columns sender, recipient and content, so a content
similarity c counts as c^(1/3) once sender and recipient match.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

from toolplay.methods.toolsandbox._similarity import (
    ROUGE_COLUMNS,
    RowTarget,
    ValueMatcher,
    compile_target,
    geometric_mean,
    rouge_l,
    rows_similarity,
)
from toolplay.methods.toolsandbox._trace import TraceView
from toolplay.scenarios import (
    START,
    ChangeConstraint,
    Constraint,
    FlowConstraint,
    GuardrailConstraint,
    MessageConstraint,
    StateConstraint,
    ToolCallConstraint,
)

Measure = Callable[[TraceView, int, int], float]


@dataclass
class ConstraintEval:
    """A compiled constraint: similarity at (index, reference index), cached."""

    kind: str
    reference: str | None
    """The milestone id whose index `j` is (None: the initial world or unused)."""
    guardrail: bool
    measure: Measure
    key: Callable[[TraceView, int, int], Hashable]
    cache: dict[Hashable, float] = field(default_factory=dict)

    def __call__(self, view: TraceView, i: int, j: int) -> float:
        """Similarity at message `i` with the reference at message `j`."""
        key = self.key(view, i, j)
        value = self.cache.get(key)
        if value is None:
            value = self.measure(view, i, j)
            self.cache[key] = value
        return value


REPLY_COLUMNS = 3
"""Columns of a reply row in the reference (sender, recipient, content)."""


def compile_constraint(constraint: Constraint) -> list[ConstraintEval]:
    """The evaluators of one spec constraint (a guardrail: one per reference)."""
    if isinstance(constraint, StateConstraint):
        return [_state(constraint)]
    if isinstance(constraint, ChangeConstraint):
        return [_change(constraint)]
    if isinstance(constraint, GuardrailConstraint):
        return [guardrail(constraint.table, ref) for ref in constraint.references()]
    if isinstance(constraint, ToolCallConstraint):
        return [_tool_call(constraint)]
    if isinstance(constraint, MessageConstraint):
        return [_message(constraint)]
    return [_flow(constraint)]


def _named(reference: str | None) -> str | None:
    return None if reference is None or reference == START else reference


def _targets(table: str, rows: list[dict[str, Any]]) -> list[RowTarget]:
    return [
        {
            column: compile_target(
                value, "rouge" if (table, column) in ROUGE_COLUMNS else "exact", column
            )
            for column, value in row.items()
        }
        for row in rows
    ]


def _state(c: StateConstraint) -> ConstraintEval:
    targets, exact = _targets(c.table, c.rows), c.match == "equals"

    def measure(view: TraceView, i: int, j: int) -> float:
        return rows_similarity(view.snapshot(c.table, i).rows, targets, exact_count=exact)

    return ConstraintEval("state", None, False, measure, lambda v, i, j: v.version(c.table, i))


def _change(c: ChangeConstraint) -> ConstraintEval:
    targets, exact = _targets(c.table, c.rows), c.match == "equals"

    def measure(view: TraceView, i: int, j: int) -> float:
        now, before = view.snapshot(c.table, i), view.snapshot(c.table, j)
        if c.kind == "added":
            if not before.within(now):
                return 0.0
            changed = now.minus(before)
        elif c.kind == "removed":
            if not now.within(before):
                return 0.0
            changed = before.minus(now)
        else:
            if len(now.rows) != len(before.rows):
                return 0.0
            changed = now.minus(before)
        return rows_similarity(changed, targets, exact_count=exact)

    return ConstraintEval(
        c.kind,
        _named(c.reference),
        False,
        measure,
        lambda v, i, j: (v.version(c.table, i), v.version(c.table, j)),
    )


def guardrail(table: str, reference: str) -> ConstraintEval:
    """The table is unchanged between `reference` (a milestone id or `start`) and here."""

    def measure(view: TraceView, i: int, j: int) -> float:
        return float(view.snapshot(table, i).counts == view.snapshot(table, j).counts)

    return ConstraintEval(
        "guardrail",
        _named(reference),
        True,
        measure,
        lambda v, i, j: (v.version(table, i), v.version(table, j)),
    )


def _arguments_similarity(arguments: Any, targets: dict[str, ValueMatcher]) -> float:
    if arguments is None:
        return 0.0
    return geometric_mean([m(arguments.get(name)) for name, m in targets.items()])


def _tool_call(c: ToolCallConstraint) -> ConstraintEval:
    options = [
        (o.tool, {name: compile_target(v, "exact", name) for name, v in o.arguments.items()})
        for o in c.options()
    ]

    def measure(view: TraceView, i: int, j: int) -> float:
        trace = view.trace(i)
        if trace is None or (c.outcome == "success" and not trace.ok):
            return 0.0
        if c.outcome == "error" and trace.ok:
            return 0.0
        return max(
            (
                _arguments_similarity(trace.arguments, t)
                for tool, t in options
                if tool == trace.tool
            ),
            default=0.0,
        )

    return ConstraintEval("tool_call", None, False, measure, lambda v, i, j: i)


def _message(c: MessageConstraint) -> ConstraintEval:
    content = compile_target(c.content, "rouge", "content")

    calls = (c.sender, c.recipient) == ("assistant", "environment")

    def measure(view: TraceView, i: int, j: int) -> float:
        message = view.messages[i]
        if message.sender != c.sender or message.recipient != c.recipient:
            return 0.0
        if calls and message.tool_calls:
            best = max(content(text) for text in view.call_texts(i))
            return float(best ** (1 / REPLY_COLUMNS))
        return float(content(message.content) ** (1 / REPLY_COLUMNS))

    return ConstraintEval("message", None, False, measure, lambda v, i, j: i)


def extract(value: Any, path: str) -> Iterator[Any]:
    """Every value at dotted `path` in `value` (`*` walks all list items / dict values)."""
    parts = [p for p in path.split(".") if p] if path else []

    def walk(node: Any, rest: list[str]) -> Iterator[Any]:
        if not rest:
            yield node
            return
        head, tail = rest[0], rest[1:]
        if head == "*":
            items = list(node.values()) if isinstance(node, dict) else node
            if isinstance(items, list):
                for item in items:
                    yield from walk(item, tail)
        elif isinstance(node, dict) and head in node:
            yield from walk(node[head], tail)
        elif isinstance(node, list) and head.lstrip("-").isdigit():
            position = int(head)
            if -len(node) <= position < len(node):
                yield from walk(node[position], tail)

    yield from walk(value, parts)


def _shown(value: Any, digits: int | None) -> Any:
    if digits is not None and isinstance(value, int | float) and not isinstance(value, bool):
        value = round(float(value), digits)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _forms(value: Any, formats: list[str]) -> list[str]:
    """`value` as a float in each format (none when it is no number: the reference's
    normalising extractors call `float()` on it and skip what fails).
    """
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return []
    return [format(number, spec) for spec in formats]


def _flow(c: FlowConstraint) -> ConstraintEval:
    similarity = c.similarity or ("exact" if c.argument is not None else "rouge")

    def sources(view: TraceView, i: int, j: int) -> list[Any]:
        if c.from_ is not None:
            indices = [j]
        else:
            indices = [k for k, t in view.traces.items() if k < i and t.tool == c.from_tool]
        values: list[Any] = []
        for k in indices:
            trace = view.trace(k)
            if trace is not None and trace.ok:
                values.extend(extract(trace.result, c.path))
        if c.formats is not None:
            return [text for v in values for text in _forms(v, c.formats)]
        shown = [_shown(v, c.round) for v in values if v is not None]
        if similarity == "close":  # as the reference's extractors: a non-number is no value
            shown = [v for v in shown if isinstance(v, int | float) and not isinstance(v, bool)]
        return shown

    def matcher(value: Any) -> ValueMatcher:
        if similarity == "close":
            return compile_target({"close": value, "tolerance": c.tolerance})
        if similarity == "contains":
            return compile_target({"contains": str(value), "ignore_case": c.ignore_case})
        if similarity == "rouge":
            return compile_target({"rouge": str(value)})
        return compile_target({"exact": value}, name=c.argument or "")

    def measure(view: TraceView, i: int, j: int) -> float:
        # Messages that cannot match are refused before the source values are gathered: a
        # referencing milestone is measured at every (i, j) pair, and most i are refused.
        if c.argument is not None:
            trace = view.trace(i)
            if trace is None or trace.arguments is None:
                return 0.0
            if c.tool is not None and trace.tool != c.tool:
                return 0.0
            observed = _shown(trace.arguments.get(c.argument), c.round)
            return max((matcher(v)(observed) for v in sources(view, i, j)), default=0.0)
        message = view.messages[i]
        if message.sender != "assistant" or message.recipient != "user":
            return 0.0
        text = message.content or ""
        filled = [str(c.template).replace("{value}", str(v)) for v in sources(view, i, j)]
        if similarity == "contains":
            fold = str.casefold if c.ignore_case else str
            return float(any(fold(f) in fold(text) for f in filled))
        if similarity == "exact":
            return float(any(f.strip() == text.strip() for f in filled))
        best = max((rouge_l(f, text) for f in filled), default=0.0)
        return float(best ** (1 / REPLY_COLUMNS))

    if c.from_ is not None:
        return ConstraintEval("flow", c.from_, False, measure, lambda v, i, j: (i, j))
    return ConstraintEval("flow", None, False, measure, lambda v, i, j: i)
