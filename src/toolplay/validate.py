"""Suite validation: the oracle must score perfectly on every scenario.

For each scenario: the file loaded (done by `load_suite`), reference calls marked `check`
reproduce their recorded result or exception, and the oracle with the scripted user scores 1.0
in the scenario's own mode. Per-method checks (minefields silent on the reference, ...) come
with the method's scorer, which reports them in the score details as `validation_problems`.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from toolplay.messages import ToolCall
from toolplay.roles import OracleAssistant, ScriptedUser
from toolplay.runs import MODES, default_context
from toolplay.scenarios import Scenario, build_world, load_suite, scenario_registry
from toolplay.scoring import REFERENCE_CHECKS, ScoringContext, score_trajectory
from toolplay.tools import ToolCrash


@dataclass
class ValidationReport:
    """What validation checked and what failed (one line per failure)."""

    checked: int = 0
    failures: list[str] = field(default_factory=list)


def check_reference_results(scenario: Scenario) -> list[str]:
    """Replay reference calls in order; those marked `check` must reproduce their record."""
    problems = []
    world = build_world(scenario)
    registry = scenario_registry(scenario)
    for t, turn in enumerate(scenario.reference):
        for c, call in enumerate(turn.calls):
            world.index += 1
            try:
                outcome = registry.execute(
                    world, ToolCall.from_args(f"v{t}_{c}", call.name, call.arguments)
                )
            except ToolCrash as exc:
                problems.append(
                    f"{scenario.id}: reference[{t}].calls[{c}] {call.name}: "
                    f"{str(exc).splitlines()[0]}"
                )
                continue
            if not call.check:
                continue
            judge = REFERENCE_CHECKS.get(scenario.evaluation)
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


async def _validate(scenarios: list[Scenario], mode: str, context: ScoringContext) -> list[str]:
    failures: list[str] = []
    oracle, user = OracleAssistant(), ScriptedUser()
    for scenario in scenarios:
        failures += check_reference_results(scenario)
        trajectory = await MODES[mode](scenario, oracle, user, 0, {})
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
        result = score_trajectory(scenario, trajectory, context)
        for problem in result.details.get("validation_problems", []):
            failures.append(f"{scenario.id}: {problem}")
        if result.score is None or result.score < 1.0:
            failures.append(f"{scenario.id}: oracle scored {result.score} (expected 1.0)")
    return failures


def validate_suite(spec: str, mode: str | None = None) -> ValidationReport:
    """Validate every scenario of suite `spec`, in `mode` (default: the suite's own).

    Raises:
        ValueError: `mode` is not a known mode.
    """
    if mode is not None and mode not in MODES:  # before loading: a typo should fail fast
        raise ValueError(f"--mode: {mode!r} is not a mode; known: {', '.join(MODES)}")
    suite = load_suite(spec)
    chosen = mode or suite.default_mode
    if chosen not in MODES:
        raise ValueError(f"mode {chosen!r} is not available; known: {', '.join(MODES)}")
    failures = asyncio.run(_validate(suite.scenarios, chosen, default_context(suite)))
    return ValidationReport(checked=len(suite.scenarios), failures=failures)
