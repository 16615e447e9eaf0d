"""The `milestones` scorer (ToolSandbox): best DAG-respecting milestone mapping, minefield veto.

The trajectory's world is rebuilt from its recorded changes, so scoring a stored trajectory
(`toolplay score RUN_DIR`) gives exactly the numbers of the live run. Each milestone's
similarity at a message index is the geometric mean of its constraints (guardrails multiply
in as 0/1 without being counted); `best_mapping` finds, exactly and in polynomial time, the
mapping with the highest mean similarity whose order respects the DAG. Minefields are matched
the same way; any minefield similarity above 0 vetoes the scenario:
score = milestone similarity × [minefield similarity = 0].

When the oracle played the trajectory (the reference solution), any shortfall is a problem of
the scenario itself and is reported in `details["validation_problems"]`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from toolplay.messages import Trajectory
from toolplay.scenarios import (
    Milestone,
    Scenario,
    build_world,
    milestone_edges,
    milestone_ids,
    milestone_reference,
)
from toolplay.scoring._constraints import ConstraintEval, compile_constraint
from toolplay.scoring._mapping import best_mapping
from toolplay.scoring._result import ScenarioScore, ScoringContext
from toolplay.scoring._trace import TraceView
from toolplay.world import replay_changes

ORACLE = "oracle"
PERFECT = 1.0 - 1e-9
"""Scores at least this high count as perfect (guards against rounding in geometric means)."""


class _Compiled:
    """One milestone list compiled for a trajectory: evaluators, DAG edges, references."""

    def __init__(self, milestones: Sequence[Milestone]) -> None:
        self.milestones = list(milestones)
        self.ids = milestone_ids(self.milestones)
        self.edges = milestone_edges(self.milestones)
        position = {name: i for i, name in enumerate(self.ids)}
        self.references: dict[int, int] = {}
        for m, milestone in enumerate(self.milestones):
            ref = milestone_reference(milestone)
            if ref is not None:
                self.references[m] = position[ref]
        self.evals: list[list[ConstraintEval]] = [
            [compile_constraint(c) for c in milestone.constraints] for milestone in self.milestones
        ]

    def constraint_values(self, view: TraceView, m: int, i: int, ref: int | None) -> list[float]:
        """Each constraint's similarity for milestone `m` at `i` (reference at `ref`)."""
        j_ref = ref if ref is not None else -1
        return [e(view, i, j_ref if e.uses_reference else -1) for e in self.evals[m]]

    def similarity(self, view: TraceView, m: int, i: int, ref: int | None) -> float:
        """Milestone similarity: geometric mean of non-guardrail constraints × guardrails."""
        values = self.constraint_values(view, m, i, ref)
        counted = [v for v, e in zip(values, self.evals[m], strict=True) if not e.guardrail]
        guards = [v for v, e in zip(values, self.evals[m], strict=True) if e.guardrail]
        if not counted:
            return math.prod(guards)
        if min(counted) <= 0.0:
            return 0.0
        mean = math.exp(math.fsum(math.log(v) for v in counted) / len(counted))
        return min(1.0, mean) * math.prod(guards)

    def match(self, view: TraceView) -> tuple[float, list[dict[str, Any]]]:
        """Best mapping: mean similarity and, per milestone, its index and evidence."""
        k = len(self.milestones)
        if k == 0:
            return 1.0, []
        result = best_mapping(
            lambda m, i, ref: self.similarity(view, m, i, ref),
            view.size,
            self.edges,
            self.references,
            k=k,
        )
        evidence = []
        for m, index in enumerate(result.indices):
            ref = result.indices[self.references[m]] if m in self.references else None
            values = self.constraint_values(view, m, index, ref) if index is not None else []
            evidence.append(
                {
                    "id": self.ids[m],
                    "index": index,
                    "similarity": result.similarities[m],
                    "constraints": [
                        {"kind": e.kind, "similarity": v}
                        for e, v in zip(self.evals[m], values, strict=False)
                    ],
                }
            )
        return result.mean, evidence


def score_milestones(
    scenario: Scenario, trajectory: Trajectory, context: ScoringContext | None = None
) -> ScenarioScore:
    """Score a trajectory against the scenario's milestones and minefields (module docstring)."""
    world = replay_changes(build_world(scenario), trajectory.changes)
    view = TraceView(trajectory, world)
    milestone_similarity, milestone_map = _Compiled(scenario.milestones).match(view)
    if scenario.minefields:
        minefield_similarity, minefield_map = _Compiled(scenario.minefields).match(view)
    else:
        minefield_similarity, minefield_map = 0.0, []
    score = milestone_similarity if minefield_similarity == 0.0 else 0.0
    details: dict[str, Any] = {
        "milestone_similarity": milestone_similarity,
        "minefield_similarity": minefield_similarity,
        "milestone_mapping": milestone_map,
        "minefield_mapping": minefield_map,
        "turn_count": view.turn_count(),
        "messages": view.size,
    }
    if trajectory.assistant == ORACLE:
        problems = [
            f"milestone {m['id']!r} reached only {m['similarity']:.3f} on the reference "
            f"solution (constraints: {[round(c['similarity'], 3) for c in m['constraints']]})"
            for m in milestone_map
            if m["similarity"] < PERFECT
        ]
        problems += [
            f"minefield {m['id']!r} fires on the reference solution "
            f"(similarity {m['similarity']:.3f} at message {m['index']})"
            for m in minefield_map
            if m["similarity"] > 0.0
        ]
        if problems:
            details["validation_problems"] = problems
    return ScenarioScore(
        scenario_id=scenario.id,
        trial=trajectory.trial,
        evaluation="milestones",
        score=score,
        details=details,
    )


def _metrics(records: Sequence[tuple[Scenario, ScenarioScore]], *, count: bool) -> dict[str, Any]:
    scored = [r for _, r in records if r.score is not None]
    metrics: dict[str, Any] = {
        "similarity": None,
        "milestone_similarity": None,
        "perfect_rate": None,
        "turn_count": None,
    }
    if scored:
        metrics = {
            "similarity": fmean(r.score for r in scored if r.score is not None),
            "milestone_similarity": fmean(r.details["milestone_similarity"] for r in scored),
            "perfect_rate": sum(1 for r in scored if (r.score or 0.0) >= PERFECT) / len(scored),
            "turn_count": fmean(r.details["turn_count"] for r in scored),
        }
    if count:
        metrics["scenarios"] = len(scored)
    return metrics


def aggregate_milestones(records: Sequence[tuple[Scenario, ScenarioScore]]) -> dict[str, Any]:
    """Run metrics for milestone suites, overall and per scenario category.

    `similarity` is the mean scenario score, `milestone_similarity` the mean before the
    minefield veto, `perfect_rate` the share scoring 1, `turn_count` the mean turn count.
    """
    groups: dict[str, list[tuple[Scenario, ScenarioScore]]] = defaultdict(list)
    for scenario, record in records:
        for category in scenario.categories:
            groups[category].append((scenario, record))
    return {
        "metrics": _metrics(records, count=False),
        "by_category": {
            name: _metrics(group, count=True) for name, group in sorted(groups.items())
        },
    }
