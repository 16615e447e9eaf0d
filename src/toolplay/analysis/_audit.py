"""`toolplay audit`: item analysis of a suite, measured from runs of it.

Given runs of one suite (any assistants, modes and trials), each scenario is an item and each
run under test an examinee. Per scenario: every run's score per trial, the share of trials
passed (the scorer's success rule), the floor's (`no-call`) and the ceiling's (`oracle`) score,
how often a run's trials disagree, and its discrimination (`stats._items`: the item-rest
correlation over the runs, with Fisher's interval). Then the flags of `FLAG_RULES`, each with
the numbers and the trajectories behind it, and a suspicion score (the sum of the flags'
weights) the scenarios are sorted by.

Why the roles are kept apart: the floor and the ceiling are references, not examinees. An
oracle passes every sound scenario, so counting it among the runs would hide "failed by every
run" and make every scenario look discriminating; they are used only for their own flags
(`ceiling_fails`, `passed_by_floor`) and shown beside the runs' numbers. A run's role is its
assistant spec (`oracle`, `no-call`); everything else is under test.

Only the runs' folders are read; nothing is played or scored again, and the suite is not loaded
(the CLI may play the floor and the ceiling first, `_audit_baselines`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from toolplay.analysis._audit_errata import propose_errata
from toolplay.analysis._audit_model import (
    AUDIT_VERSION,
    FLAG_RULES,
    Audit,
    AuditRun,
    AuditSettings,
    DiscriminationValue,
    Flag,
    FlagCode,
    MilestoneReach,
    Role,
    RunScore,
    ScenarioAudit,
    SlotFill,
    TrajectoryRef,
)
from toolplay.analysis._audit_parts import milestone_similarities, slot_outcome
from toolplay.analysis._run_data import ReportError, RunData, RunEntry, run_scorers
from toolplay.analysis._versions import check_versions
from toolplay.runs import CEILING, FLOOR
from toolplay.scoring import Scorer, succeeded
from toolplay.stats import discrimination, trial_disagreement

__all__ = ["AuditInput", "audit_runs", "check_inputs", "run_role"]

_EVIDENCE_CAP = 12
"""Trajectories listed per flag at most (one per run first)."""
_SAME = 1e-9


@dataclass(frozen=True)
class AuditInput:
    """A run and the part it plays in the audit."""

    label: str
    run: RunData
    role: Role
    played: bool = False


def run_role(run: RunData) -> Role:
    """`ceiling` for the oracle, `floor` for no-call, else `run` (under test)."""
    assistant = run.describe("assistant")
    if assistant == CEILING:
        return "ceiling"
    if assistant == FLOOR:
        return "floor"
    return "run"


@dataclass
class _Trials:
    """One run's trials of one scenario, ordered by trial."""

    label: str
    entries: list[RunEntry] = field(default_factory=list)

    @property
    def scored(self) -> list[RunEntry]:
        return [e for e in self.entries if e.score is not None and e.value is not None]

    @property
    def values(self) -> list[float]:
        return [e.value for e in self.scored if e.value is not None]

    @property
    def mean(self) -> float | None:
        values = self.values
        return fmean(values) if values else None

    def ref(self, entry: RunEntry) -> TrajectoryRef:
        return TrajectoryRef(run=self.label, trial=entry.trial, score=entry.value)


def _by_scenario(item: AuditInput) -> dict[str, _Trials]:
    found: dict[str, _Trials] = {}
    for entry in item.run.entries:
        found.setdefault(entry.id, _Trials(item.label)).entries.append(entry)
    return found


def _passed(entry: RunEntry, scorers: Mapping[str, Scorer]) -> bool:
    return entry.score is not None and entry.value is not None and succeeded(entry.score, scorers)


def check_inputs(inputs: Sequence[AuditInput], *, mixed_versions: bool = False) -> tuple[str, str]:
    """The suite and the suite version of the runs, once they are fit for an audit.

    Raises:
        ReportError: No run under test, runs of different suites, or runs scored against
            different suite versions (unless `mixed_versions`).
    """
    if not any(i.role == "run" for i in inputs):
        raise ReportError(
            "audit needs at least one run under test (the oracle and no-call are references)"
        )
    suites: dict[str, list[str]] = {}
    for item in inputs:
        suites.setdefault(item.run.describe("suite"), []).append(item.label)
    if len(suites) > 1:
        listed = "; ".join(f"{', '.join(n)}: {s}" for s, n in suites.items())
        raise ReportError(f"audit compares runs of one suite; these are of several ({listed})")
    version = check_versions(
        [i.label for i in inputs], [i.run for i in inputs], mixed=mixed_versions
    )
    return next(iter(suites)), version


def audit_runs(
    inputs: Sequence[AuditInput], settings: AuditSettings, *, mixed_versions: bool = False
) -> Audit:
    """The audit of one suite from runs of it (see the module docstring).

    Raises:
        ReportError: No run under test, runs of different suites, or runs scored against
            different suite versions (unless `mixed_versions`).
    """
    suite, version = check_inputs(inputs, mixed_versions=mixed_versions)
    scorers = run_scorers([i.run for i in inputs])  # how each method's checks read
    tested = [i for i in inputs if i.role == "run"]
    tables = {i.label: _by_scenario(i) for i in inputs}
    totals = {
        i.label: [m for t in tables[i.label].values() if (m := t.mean) is not None] for i in tested
    }
    ids = sorted({sid for i in tested for sid in tables[i.label]})
    items = [_scenario(sid, inputs, tables, totals, settings, scorers) for sid in ids]
    items.sort(
        key=lambda s: (
            -s.suspicion,
            s.solve_rate if s.solve_rate is not None else 2.0,
            s.mean if s.mean is not None else 2.0,
            s.id,
        )
    )
    counts = Counter(flag.code for s in items for flag in s.flags)
    return Audit(
        audit_version=AUDIT_VERSION,
        suite=suite,
        suite_version=version,
        settings=settings,
        rules=list(FLAG_RULES),
        runs=[_run(i, tables[i.label]) for i in inputs],
        scenarios=len(items),
        flagged=sum(1 for s in items if s.flags),
        flag_counts={rule.code: counts.get(rule.code, 0) for rule in FLAG_RULES},
        items=items,
        proposed_errata=propose_errata(items, version),
        notes=_notes(tested, tables),
    )


def _run(item: AuditInput, table: dict[str, _Trials]) -> AuditRun:
    means = [m for t in table.values() if (m := t.mean) is not None]
    return AuditRun(
        label=item.label,
        path=str(item.run.path),
        role=item.role,
        played=item.played,
        suite=item.run.describe("suite"),
        mode=item.run.describe("mode"),
        assistant=item.run.describe("assistant"),
        trials=item.run.trials,
        scenarios=len(means),
        mean=fmean(means) if means else None,
    )


def _notes(tested: Sequence[AuditInput], tables: dict[str, dict[str, _Trials]]) -> list[str]:
    notes = []
    if len(tested) < 2:
        notes.append("one run under test: discrimination and never_discriminating need two")
    elif len(tested) < 4:
        notes.append(
            f"{len(tested)} runs under test: discrimination has no interval below 4 runs, "
            "so reverse_discrimination cannot be raised"
        )
    several = [i.label for i in tested if any(len(t.scored) > 1 for t in tables[i.label].values())]
    if not several:
        notes.append("no run has two or more trials: unstable cannot be raised")
    return notes


def _scenario(
    sid: str,
    inputs: Sequence[AuditInput],
    tables: dict[str, dict[str, _Trials]],
    totals: dict[str, list[float]],
    settings: AuditSettings,
    scorers: Mapping[str, Scorer],
) -> ScenarioAudit:
    of_role = {
        role: [t for i in inputs if i.role == role and (t := tables[i.label].get(sid))]
        for role in ("run", "floor", "ceiling")
    }
    runs = [t for t in of_role["run"] if t.scored]
    floor, ceiling = of_role["floor"], of_role["ceiling"]
    scored = [e for t in runs for e in t.scored]
    flags: list[Flag] = []
    means = [m for t in runs if (m := t.mean) is not None]
    spreads = [d for t in runs if (d := trial_disagreement(t.values)) is not None]
    disagreement = fmean(spreads) if spreads else None
    found = _discrimination(runs, totals, settings)
    ceiling_entries = [e for t in ceiling for e in t.scored]
    if any(not _passed(e, scorers) for e in ceiling_entries):
        failed = [(t, e) for t in ceiling for e in t.scored if not _passed(e, scorers)]
        flags.append(
            _flag(
                "ceiling_fails",
                f"the reference solution scored {_num(failed[0][1].value)}",
                [t.ref(e) for t, e in failed],
            )
        )
    passed_floor = [(t, e) for t in floor for e in t.scored if _passed(e, scorers)]
    if passed_floor:
        flags.append(
            _flag(
                "passed_by_floor",
                f"doing nothing passed {len(passed_floor)} trial(s)",
                [t.ref(e) for t, e in passed_floor],
            )
        )
    if found.high is not None and found.high < 0:
        flags.append(
            _flag(
                "reverse_discrimination",
                f"r = {_num(found.r)} [{_num(found.low)}, {_num(found.high)}] over {found.n} runs",
                _best_per_run(runs),
            )
        )
    milestones, reach_flags = _milestones(runs, ceiling, settings, scorers)
    slots, slot_flags = _slots(runs, scorers)
    flags += reach_flags + slot_flags
    if scored and not any(_passed(e, scorers) for e in scored):
        best = max(e.value or 0.0 for e in scored)
        flags.append(
            _flag(
                "failed_by_all",
                f"0 of {len(scored)} trial(s) passed (best score {_num(best)})",
                _best_per_run(runs),
            )
        )
    if disagreement is not None and disagreement >= settings.unstable - _SAME:
        shaky = sorted(runs, key=lambda t: -(trial_disagreement(t.values) or 0.0))
        refs = [
            t.ref(e) for t in shaky for e in t.scored if (trial_disagreement(t.values) or 0) > 0
        ]
        flags.append(
            _flag(
                "unstable",
                f"trial disagreement {_num(disagreement)} "
                f"(over {len(spreads)} run(s) with 2+ trials)",
                refs,
            )
        )
    if len(means) >= 2 and max(means) - min(means) <= _SAME:
        flags.append(
            _flag(
                "never_discriminating",
                f"every one of {len(means)} runs scored {_num(means[0])}",
                _best_per_run(runs),
            )
        )
    weights = {rule.code: rule.weight for rule in FLAG_RULES}
    first = next((e for t in [*runs, *floor, *ceiling] for e in t.entries), None)
    info = first.info if first is not None else None
    return ScenarioAudit(
        id=sid,
        description=info.description if info is not None and info.description else "",
        categories=list(info.categories) if info is not None else [],
        suspicion=sum(weights[f.code] for f in flags),
        flags=flags,
        solve_rate=sum(_passed(e, scorers) for e in scored) / len(scored) if scored else None,
        mean=fmean(means) if means else None,
        floor=_mean_of(floor),
        ceiling=_mean_of(ceiling),
        trial_disagreement=disagreement,
        discrimination=found,
        runs=[_run_score(t, scorers) for t in of_role["run"]],
        milestones=milestones,
        slots=slots,
    )


def _flag(code: FlagCode, detail: str, refs: Sequence[TrajectoryRef]) -> Flag:
    return Flag(code=code, detail=detail, evidence=list(refs)[:_EVIDENCE_CAP])


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _mean_of(trials: Sequence[_Trials]) -> float | None:
    values = [v for t in trials for v in t.values]
    return fmean(values) if values else None


def _best_per_run(runs: Sequence[_Trials]) -> list[TrajectoryRef]:
    """Each run's best-scoring trial (the first among equals)."""
    return [t.ref(max(t.scored, key=lambda e: e.value or 0.0)) for t in runs if t.scored]


def _run_score(trials: _Trials, scorers: Mapping[str, Scorer]) -> RunScore:
    by_trial = {e.trial: e.value for e in trials.entries}
    count = max(by_trial, default=-1) + 1
    return RunScore(
        run=trials.label,
        scores=[by_trial.get(t) for t in range(count)],
        mean=trials.mean,
        solved=sum(_passed(e, scorers) for e in trials.scored),
        disagreement=trial_disagreement(trials.values),
    )


def _discrimination(
    runs: Sequence[_Trials], totals: dict[str, list[float]], settings: AuditSettings
) -> DiscriminationValue:
    """The item-rest correlation: each run's score here against its mean everywhere else."""
    item: list[float] = []
    rest: list[float] = []
    for trials in runs:
        mine, others = trials.mean, totals[trials.label]
        if mine is None or len(others) < 2:
            continue
        item.append(mine)
        rest.append((sum(others) - mine) / (len(others) - 1))
    found = discrimination(item, rest, settings.level)
    return DiscriminationValue(n=found.n, r=found.r, low=found.low, high=found.high)


def _milestones(
    runs: Sequence[_Trials],
    ceiling: Sequence[_Trials],
    settings: AuditSettings,
    scorers: Mapping[str, Scorer],
) -> tuple[list[MilestoneReach], list[Flag]]:
    best: dict[str, float] = {}
    reaching: dict[str, set[str]] = {}
    top: dict[str, dict[str, tuple[float, RunEntry]]] = {}
    for trials in runs:
        for entry in trials.scored:
            found = milestone_similarities(entry.score, scorers)
            for mid, similarity in (found or {}).items():
                best[mid] = max(best.get(mid, 0.0), similarity)
                if similarity >= settings.reach - _SAME:
                    reaching.setdefault(mid, set()).add(trials.label)
                mine = top.setdefault(mid, {})
                if trials.label not in mine or similarity > mine[trials.label][0]:
                    mine[trials.label] = (similarity, entry)
    refs = {t.label: t for t in runs}
    ceiling_at: dict[str, float] = {}
    for entry in (e for t in ceiling for e in t.scored):
        for mid, similarity in (milestone_similarities(entry.score, scorers) or {}).items():
            ceiling_at[mid] = min(ceiling_at.get(mid, 1.0), similarity)
    reached = [
        MilestoneReach(
            id=mid,
            best=value,
            runs_reaching=len(reaching.get(mid, ())),
            ceiling=ceiling_at.get(mid),
        )
        for mid, value in best.items()
    ]
    missed = [m for m in reached if not m.runs_reaching]
    if not missed:
        return reached, []
    parts = []
    for milestone in missed:
        if milestone.ceiling is None:
            by = "no ceiling run"
        elif milestone.ceiling >= settings.reach - _SAME:
            by = "the reference reaches it"
        else:
            by = "not even the reference reaches it"
        parts.append(f"{milestone.id} (best {_num(milestone.best)}; {by})")
    evidence = [refs[label].ref(entry) for m in missed for label, (_, entry) in top[m.id].items()]
    return reached, [_flag("milestone_never_reached", "milestone " + ", ".join(parts), evidence)]


def _slots(
    runs: Sequence[_Trials], scorers: Mapping[str, Scorer]
) -> tuple[list[SlotFill], list[Flag]]:
    gold: dict[str, Any] = {}
    correct: Counter[str] = Counter()
    wrong: dict[str, list[tuple[_Trials, RunEntry, Any]]] = {}
    seen: Counter[str] = Counter()
    filled_by: dict[str, set[str]] = {}
    for trials in runs:
        for entry in trials.scored:
            outcome = slot_outcome(entry.score, scorers)
            if outcome is None:
                continue
            for slot, value in outcome.gold.items():
                gold.setdefault(slot, value)
                seen[slot] += 1
                if slot in outcome.correct:
                    correct[slot] += 1
                    filled_by.setdefault(slot, set()).add(trials.label)
                elif slot in outcome.wrong:
                    wrong.setdefault(slot, []).append((trials, entry, outcome.wrong[slot]))
    fills: list[SlotFill] = []
    for slot, value in gold.items():
        given = wrong.get(slot, [])
        values = Counter(_key(v) for _, _, v in given)
        common, count = values.most_common(1)[0] if values else (None, 0)
        fills.append(
            SlotFill(
                slot=slot,
                gold=value,
                correct=correct[slot],
                wrong=len(given),
                missing=seen[slot] - correct[slot] - len(given),
                runs_filling=len(filled_by.get(slot, ())),
                common=next((v for _, _, v in given if _key(v) == common), None),
                common_count=count,
                common_runs=len({t.label for t, _, v in given if _key(v) == common}),
            )
        )
    empty = [f for f in fills if not f.correct]
    if not empty:
        return fills, []
    parts = []
    for fill in empty:
        also = f"; most given {fill.common!r} x{fill.common_count}" if fill.common_count else ""
        parts.append(
            f"{fill.slot} (gold {fill.gold!r}: wrong {fill.wrong}, missing {fill.missing}{also})"
        )
    evidence = [t.ref(e) for f in empty for t, e, _ in wrong.get(f.slot, [])]
    flag = _flag("slot_never_filled", "slot " + ", ".join(parts), evidence or _best_per_run(runs))
    return fills, [flag]


def _key(value: Any) -> str:
    return repr(value)
