"""Suite validation: the oracle must score perfectly on every scenario.

For each scenario: the file loaded (done by `load_suite`), reference calls marked `check`
reproduce their recorded result or exception, and the oracle with the scripted user scores 1.0
in the scenario's own mode. The suite, mode, presentation and roles are resolved by the same
run plan as a run's (`runs.resolve_run`). Per-method checks (minefields silent on the
reference, ...) come with the method's scorer, which reports them in the score details as
`validation_problems`. A scorer with vetoes (ToolSandbox's minefields) also gives trajectories
that should fire each one (`Scorer.veto_probes`); a veto none of them fires is reported, since
a veto no trajectory can fire checks nothing (the reference solution, which must not fire it,
cannot show that).
A scenario whose solution the suite's presentation cannot play (`Presentation.unsolvable`: a
reference defect a reference presentation keeps, so its requests and numbers stay the paper's)
is listed as known, with the reason, and its solution is played under toolplay's presentation
instead (the scenario itself must still be sound).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from toolplay.catalog import DEFAULT_PRESENTATION, Catalog, CatalogError, build_catalog
from toolplay.conversation import Mode, Player, PlayRequest
from toolplay.messages import ToolCall
from toolplay.roles import OracleAssistant, ScriptedUser
from toolplay.runs import RunConfig, RunPlan, resolve_run
from toolplay.scenarios import CallExecutor, Scenario, ScenarioSetup
from toolplay.scoring import ReferenceCheck, Scorer, ScoringContext, score_trajectory
from toolplay.tools import ToolCrash


class ProbeAssistant(OracleAssistant):
    """The oracle under another name: it plays a veto probe's trajectory, not the solution."""

    name = "probe"


@dataclass
class ValidationReport:
    """What validation checked and what failed (one line per failure)."""

    checked: int = 0
    failures: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)


def check_reference_results(
    setup: ScenarioSetup, judge: ReferenceCheck | None, executor: CallExecutor | None = None
) -> list[str]:
    """Replay reference calls in order; those marked `check` must reproduce their record.

    `judge` is the scenario's scorer's own test of a replayed call (default: the same result,
    or a failure where an exception is recorded). `executor` runs them as the presentation's
    reference did (default: toolplay's registry).
    """
    scenario = setup.scenario
    problems = []
    world = setup.new_world()
    registry = setup.registry
    for t, turn in enumerate(scenario.reference):
        for c, call in enumerate(turn.calls):
            world.index += 1
            try:
                if executor is not None:
                    outcome = executor.replay(world, call)
                else:
                    request = ToolCall.from_args(f"v{t}_{c}", call.name, call.arguments)
                    outcome = registry.execute(world, request)
            except ToolCrash as exc:
                problems.append(
                    f"{scenario.id}: reference[{t}].calls[{c}] {call.name}: "
                    f"{str(exc).splitlines()[0]}"
                )
                continue
            if not call.check:
                continue
            if judge is not None:
                if not judge(call, outcome.result, outcome.error):
                    got = outcome.error if outcome.error else json.dumps(outcome.result)[:200]
                    recorded = call.exception or json.dumps(call.result)[:200]
                    problems.append(
                        f"{scenario.id}: reference[{t}].calls[{c}] {call.name} "
                        f"gave {got}; recorded {recorded}"
                    )
                continue
            if call.exception is not None:
                if outcome.error is None:
                    problems.append(
                        f"{scenario.id}: reference[{t}].calls[{c}] {call.name} "
                        f"should fail with {call.exception!r} but succeeded"
                    )
            elif outcome.error is not None or outcome.result != call.result:
                got = outcome.error if outcome.error else json.dumps(outcome.result)[:200]
                problems.append(
                    f"{scenario.id}: reference[{t}].calls[{c}] {call.name} "
                    f"gave {got} instead of {json.dumps(call.result)[:200]}"
                )
    return problems


async def _validate(
    plan: RunPlan, player: Player, fallback: Player, context: ScoringContext, known: list[str]
) -> list[str]:
    failures: list[str] = []
    catalog = plan.catalog
    for scenario in plan.scenarios:
        setup = catalog.setup(scenario)
        scorer = catalog.scorer(scenario.evaluation)
        failures += check_reference_results(
            setup, scorer.reference_check, plan.presentation.executor(setup)
        )
        why = plan.presentation.unsolvable(setup)
        if why is not None:
            known.append(f"{scenario.id}: {why}")
        trajectory = await (player if why is None else fallback).play(setup, 0)
        if trajectory.termination in ("infrastructure_error", "assistant_error"):
            first_line = (trajectory.error or "").splitlines()[0:1]
            failures.append(
                f"{scenario.id}: oracle run ended with {trajectory.termination}: "
                f"{first_line[0] if first_line else ''}"
            )
            continue
        if trajectory.termination in ("turn_limit", "call_limit"):
            failures.append(
                f"{scenario.id}: oracle run hit the {trajectory.termination.replace('_', ' ')} "
                f"before the reference solution was played out"
            )
        result = score_trajectory(setup, trajectory, scorer, context)
        problems = result.evidence.validation_problems if result.evidence is not None else []
        failures += [f"{scenario.id}: {problem}" for problem in problems]
        if result.score is None or result.score < 1.0:
            failures.append(f"{scenario.id}: oracle scored {result.score} (expected 1.0)")
        failures += await check_vetoes(catalog, setup, scorer, plan.mode, context)
    return failures


async def check_vetoes(
    catalog: Catalog, setup: ScenarioSetup, scorer: Scorer, mode: Mode, context: ScoringContext
) -> list[str]:
    """One line per veto of the scenario that none of the scorer's probes fires."""
    if scorer.veto_probes is None:
        return []
    problems = []
    for probe in scorer.veto_probes(setup):
        fired = False
        for candidate in probe.candidates:
            played = await mode.play(
                PlayRequest(catalog.setup(candidate), ProbeAssistant(), ScriptedUser())
            )
            if probe.fired(score_trajectory(setup, played, scorer, context)):
                fired = True
                break
        if not fired:
            why = probe.reason or (
                f"none of the {len(probe.candidates)} trajectories generated from it trips it"
            )
            problems.append(f"{setup.scenario.id}: {probe.label} cannot be tripped: {why}")
    return problems


def validate_suite(
    spec: str,
    mode: str | None = None,
    *,
    catalog: Catalog | None = None,
    scenarios: Sequence[Scenario] | None = None,
) -> ValidationReport:
    """Validate every scenario of suite `spec`, in `mode` (default: the suite's own); or only
    `scenarios` (e.g. a benchmark's selection), played as the suite plays them.

    Raises:
        CatalogError: `mode` is not a known mode.
    """
    catalog = catalog or build_catalog()
    if mode is not None and mode not in catalog.modes:  # before loading: fail fast on a typo
        raise CatalogError(f"--mode: {mode!r} is not a mode; known: {', '.join(catalog.modes)}")
    plan = resolve_run(RunConfig(suite=spec, mode=mode), catalog, intent="play")
    if scenarios is not None:
        plan = replace(plan, scenarios=list(scenarios))
    roles = plan.roles()  # the oracle and the scripted user
    player = plan.player(*roles)
    fallback = replace(plan, presentation=catalog.presentation(DEFAULT_PRESENTATION)).player(*roles)
    known: list[str] = []
    failures = asyncio.run(_validate(plan, player, fallback, plan.scoring_context(), known))
    return ValidationReport(checked=len(plan.scenarios), failures=failures, known=known)
