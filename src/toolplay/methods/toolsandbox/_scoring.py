"""The `milestones` scorer (ToolSandbox): best DAG-respecting milestone mapping, minefield veto.

The trajectory's world is rebuilt from its recorded changes, so scoring a stored trajectory
(`toolplay score RUN_DIR`) gives exactly the numbers of the live run. Each milestone gets the
reference's implicit guardrails (see `_Compiled`); its similarity at a message index is the
geometric mean of its constraints (guardrails multiply in as 0/1 without being counted).
`best_mapping` finds, exactly, the mapping with the highest mean similarity whose order
respects the DAG, over the message indices that can matter (`_Compiled.useful_indices`) and
with each referenced milestone seen through its world version (`_Compiled.key`). Minefields are
matched the same way; any minefield similarity above 0 vetoes the scenario:
score = milestone similarity × [minefield similarity = 0].

When the oracle played the trajectory (the reference solution), any shortfall is a problem of
the scenario itself and is reported in `evidence.validation_problems`.
"""

from __future__ import annotations

import bisect
import json
import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from statistics import fmean

from toolplay.messages import Trajectory, turn_count
from toolplay.methods.toolsandbox._constraints import ConstraintEval, compile_constraint, guardrail
from toolplay.methods.toolsandbox._evidence import (
    ConstraintValue,
    MilestoneEvidence,
    MilestoneMatch,
)
from toolplay.methods.toolsandbox._trace import TraceView
from toolplay.scenarios import (
    START,
    ChangeConstraint,
    FlowConstraint,
    GuardrailConstraint,
    MessageConstraint,
    Milestone,
    ScenarioSetup,
    checked_tables,
    milestone_edges,
    milestone_ids,
    milestone_references,
)
from toolplay.scoring import (
    MethodSummary,
    MetricValues,
    ScenarioScore,
    Scored,
    ScoringContext,
    evidence_as,
    group_counts,
)
from toolplay.world import replay_changes

ORACLE = "oracle"
PERFECT = 1.0 - 1e-9
"""Scores at least this high count as perfect (guards against rounding in geometric means)."""


class _Compiled:
    """One milestone list compiled for a trajectory: evaluators, DAG edges, references.

    Each milestone gets ToolSandbox's implicit guardrails (see `toolplay.scenarios`): every
    table in `tables` that neither it, its predecessors nor the milestones it refers to check
    must be unchanged since each predecessor's and each referred milestone's snapshot.
    """

    def __init__(self, milestones: Sequence[Milestone], tables: Sequence[str] = ()) -> None:
        self.milestones = list(milestones)
        self.ids = milestone_ids(self.milestones)
        self.edges = milestone_edges(self.milestones)
        position = {name: i for i, name in enumerate(self.ids)}
        preds: list[list[int]] = [[] for _ in self.milestones]
        for a, b in self.edges:
            if a not in preds[b]:
                preds[b].append(a)
        self.references: dict[int, tuple[int, ...]] = {}
        self.evals: list[list[ConstraintEval]] = []
        self.implicit: list[int] = []
        flow_referenced: set[int] = set()
        for m, milestone in enumerate(self.milestones):
            evals = [e for c in milestone.constraints for e in compile_constraint(c)]
            named = milestone_references(milestone)
            refers_to_start = any(
                isinstance(c, ChangeConstraint)
                and c.reference == START
                or isinstance(c, GuardrailConstraint)
                and START in c.references()
                for c in milestone.constraints
            )
            guarded = _guard_tables(milestone, tables) - checked_tables(milestone)
            for j in [position[name] for name in named] + preds[m]:
                guarded -= checked_tables(self.milestones[j])
            since = [self.ids[j] for j in preds[m]] + named
            since = list(dict.fromkeys(([START] if refers_to_start else []) + since))
            implicit = [guardrail(table, ref) for ref in since for table in sorted(guarded)]
            self.implicit.append(len(implicit))
            self.evals.append(evals + implicit)
            refs = tuple(dict.fromkeys([position[name] for name in named] + preds[m]))
            if refs:
                self.references[m] = refs
            flow_referenced |= {
                position[c.from_]
                for c in milestone.constraints
                if isinstance(c, FlowConstraint) and c.from_ is not None
            }
        self._flow_referenced = flow_referenced
        self._position = position
        self._speakers = {
            (c.sender, c.recipient)
            for milestone in self.milestones
            for c in milestone.constraints
            if isinstance(c, MessageConstraint)
        }
        if any(
            isinstance(c, FlowConstraint) and c.template is not None
            for milestone in self.milestones
            for c in milestone.constraints
        ):
            self._speakers.add(("assistant", "user"))

    def constraint_values(
        self, view: TraceView, m: int, i: int, refs: tuple[int, ...] | None
    ) -> list[float]:
        """Each constraint's similarity for milestone `m` at `i` (references at `refs`)."""
        at = dict(zip(self.references.get(m, ()), refs or (), strict=True))
        return [
            e(view, i, -1 if e.reference is None else at[self._position[e.reference]])
            for e in self.evals[m]
        ]

    def similarity(self, view: TraceView, m: int, i: int, refs: tuple[int, ...] | None) -> float:
        """Milestone similarity: geometric mean of non-guardrail constraints × guardrails."""
        values = self.constraint_values(view, m, i, refs)
        counted = [v for v, e in zip(values, self.evals[m], strict=True) if not e.guardrail]
        guards = [v for v, e in zip(values, self.evals[m], strict=True) if e.guardrail]
        if not counted:
            return math.prod(guards)
        if min(counted) <= 0.0:
            return 0.0
        mean = math.exp(math.fsum(math.log(v) for v in counted) / len(counted))
        return min(1.0, mean) * math.prod(guards)

    def key(self, view: TraceView) -> Callable[[int, int], Hashable]:
        """What a referrer of milestone r sees of r at index j.

        Snapshot constraints see the world version there; a flow reading r's tool result also
        sees that result (the same result at two indices is the same class).
        """
        versions = view.change_points()
        results: dict[int, str | None] = {}

        def result_at(j: int) -> str | None:
            if j not in results:
                trace = view.trace(j)
                results[j] = (
                    json.dumps(trace.result, sort_keys=True, default=str)
                    if trace is not None and trace.ok
                    else None
                )
            return results[j]

        def key(r: int, j: int) -> Hashable:
            version = bisect.bisect_right(versions, j)
            if r in self._flow_referenced:
                return version, result_at(j)
            return version

        return key

    def refined_key(self, view: TraceView, kept: Sequence[int]) -> Callable[[int, int], Hashable]:
        """The coarsest exact key on `kept`: two indices of a referenced milestone r are alike
        when every constraint that refers to r gives the same value at every kept index.

        Fewer classes mean fewer mapping states; each class is computed once, from its first
        index under `key`.
        """
        base = self.key(view)
        referring: dict[int, list[ConstraintEval]] = {}
        for m in self.references:
            for e in self.evals[m]:
                if e.reference is not None:
                    referring.setdefault(self._position[e.reference], []).append(e)
        classes: dict[tuple[int, Hashable], int] = {}
        numbers: dict[tuple[int, tuple[tuple[float, ...], ...]], int] = {}

        def key(r: int, j: int) -> Hashable:
            coarse = (r, base(r, j))
            found = classes.get(coarse)
            if found is None:
                values = tuple(tuple(e(view, i, j) for i in kept) for e in referring.get(r, []))
                found = numbers.setdefault((r, values), len(numbers))
                classes[coarse] = found
            return found

        return key

    def useful_indices(self, view: TraceView, key: Callable[[int, int], Hashable]) -> list[int]:
        """The message indices an optimal mapping may need (exactly; the mapping's speed-up).

        Index i is left out when it is no better than the last index q kept: the world is the
        same at both, every referenced milestone's key is the same, and either the two messages
        are alike (same message, same tool call and result: equal similarities) or i is blank
        (no tool result, and no message or template constraint looks at its sender/recipient:
        every similarity at i is at most the one at q). Moving every milestone mapped into
        (q, i] to q then keeps the DAG order and loses nothing, and is lexicographically
        smaller, so the best mapping (and its tie-break) is unchanged.
        """
        referenced = sorted({r for refs in self.references.values() for r in refs})
        kept: list[int] = []
        last: tuple[Hashable, ...] = ()
        for i in range(view.size):
            message = view.messages[i]
            trace = view.trace(i)
            worlds = view.world_version(i)
            alike = (
                worlds,
                message.sender,
                message.recipient,
                message.content,
                tuple((c.id, c.name, c.arguments) for c in message.tool_calls),
                None
                if trace is None
                else (
                    trace.tool,
                    json.dumps(trace.arguments, sort_keys=True, default=str),
                    json.dumps(trace.result, sort_keys=True, default=str),
                    trace.error,
                ),
            )
            if kept:
                q = kept[-1]
                blank = trace is None and (message.sender, message.recipient) not in self._speakers
                if (
                    worlds == last[0]
                    and (blank or alike == last)
                    and all(key(r, i) == key(r, q) for r in referenced)
                ):
                    continue
            kept.append(i)
            last = alike
        return kept

    def match(self, view: TraceView) -> tuple[float, list[MilestoneMatch]]:
        """Best mapping: mean similarity and, per milestone, its index and evidence."""
        # numpy (under the mapping) is imported on the first scoring, not at start-up
        from toolplay.methods.toolsandbox._mapping import best_mapping  # noqa: PLC0415

        k = len(self.milestones)
        if k == 0:
            return 1.0, []
        kept = self.useful_indices(view, self.key(view))
        key = self.refined_key(view, kept)
        reduced = best_mapping(
            lambda m, i, refs: self.similarity(
                view, m, kept[i], None if refs is None else tuple(kept[j] for j in refs)
            ),
            len(kept),
            self.edges,
            self.references,
            k=k,
            key=lambda r, j: key(r, kept[j]),
        )
        result = reduced._replace(
            indices=tuple(None if i is None else kept[i] for i in reduced.indices)
        )
        evidence = []
        for m, index in enumerate(result.indices):
            refs = self.references.get(m)
            at = None if refs is None else tuple(result.indices[r] or 0 for r in refs)
            values = self.constraint_values(view, m, index, at) if index is not None else []
            evidence.append(
                MilestoneMatch(
                    id=self.ids[m],
                    index=index,
                    similarity=result.similarities[m],
                    constraints=[
                        ConstraintValue(kind=e.kind, similarity=v)
                        for e, v in zip(self.evals[m], values, strict=False)
                    ],
                )
            )
        return result.mean, evidence


def _guard_tables(milestone: Milestone, tables: Sequence[str]) -> set[str]:
    allowed = set(tables) if milestone.guardrail_tables is None else set(milestone.guardrail_tables)
    return allowed - set(milestone.guardrail_exclude)


def score_milestones(
    setup: ScenarioSetup, trajectory: Trajectory, context: ScoringContext | None = None
) -> ScenarioScore:
    """Score a trajectory against the scenario's milestones and minefields (module docstring)."""
    scenario = setup.scenario
    world = replay_changes(setup.new_world(), trajectory.changes)
    view = TraceView(trajectory, world, setup.registry)
    tables = list(world.state())
    milestone_similarity, milestone_map = _Compiled(scenario.milestones, tables).match(view)
    if scenario.minefields:
        minefield_similarity, minefield_map = _Compiled(scenario.minefields, tables).match(view)
    else:
        minefield_similarity, minefield_map = 0.0, []
    score = milestone_similarity if minefield_similarity == 0.0 else 0.0
    problems: list[str] = []
    if trajectory.assistant == ORACLE:
        problems = [
            f"milestone {m.id!r} reached only {m.similarity:.3f} on the reference "
            f"solution (constraints: {[round(c.similarity, 3) for c in m.constraints]})"
            for m in milestone_map
            if m.similarity < PERFECT
        ]
        problems += [
            f"minefield {m.id!r} fires on the reference solution "
            f"(similarity {m.similarity:.3f} at message {m.index})"
            for m in minefield_map
            if m.similarity > 0.0
        ]
    evidence = MilestoneEvidence(
        milestone_similarity=milestone_similarity,
        minefield_similarity=minefield_similarity,
        milestone_mapping=milestone_map,
        minefield_mapping=minefield_map,
        turn_count=turn_count(trajectory.messages),
        messages=view.size,
        validation_problems=problems,
    )
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trajectory.trial,
        evaluation="milestones",
        score=score,
        evidence=evidence,
    )


def _metrics(records: Sequence[Scored], *, count: bool) -> MetricValues:
    scored = [r.score for r in records if r.score.score is not None]
    evidence = [e for s in scored if (e := evidence_as(s.evidence, MilestoneEvidence)) is not None]
    values: dict[str, float | int | None] = {
        "similarity": fmean(s.score for s in scored if s.score is not None) if scored else None,
        "milestone_similarity": (
            fmean(e.milestone_similarity for e in evidence) if evidence else None
        ),
        "perfect_rate": (
            sum(1 for s in scored if (s.score or 0.0) >= PERFECT) / len(scored) if scored else None
        ),
        "turn_count": fmean(e.turn_count for e in evidence) if evidence else None,
    }
    if count:
        values.update(group_counts(records))
    return MetricValues.of(values)


def aggregate_milestones(records: Sequence[Scored]) -> MethodSummary:
    """Run metrics for milestone suites, overall and per scenario category.

    `similarity` is the mean scenario score, `milestone_similarity` the mean before the
    minefield veto, `perfect_rate` the share scoring 1, `turn_count` the mean turn count.
    """
    groups: dict[str, list[Scored]] = defaultdict(list)
    for record in records:
        for category in record.scenario.categories:
            groups[category].append(record)
    return MethodSummary(
        metrics=_metrics(records, count=False),
        by_category={name: _metrics(group, count=True) for name, group in sorted(groups.items())},
    )
