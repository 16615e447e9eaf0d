"""Perturbed assistants over `toolsandbox` (`python:tests/analysis/sandbox_agents.py:NAME`).

Each plays the reference solution of the scenario it is asked about (read here, from the
suite, as a test double may), except where its plan says otherwise: `nothing` (answers without
acting), `odd` (does nothing on odd trials), `reply` (makes the right calls, then answers in
words of its own, so the reply milestone is never reached). Plans name scenarios by position in
the first `COUNT` unaugmented scenarios, the selection the tests run.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from toolplay.catalog import build_catalog
from toolplay.roles import AssistantContext, AssistantTurn, OracleAssistant, ReferenceView
from toolplay.runs import select_scenarios

COUNT = 6
_SCENARIOS = {
    s.id: s for s in select_scenarios(build_catalog().load_suite("toolsandbox"), COUNT, ["none"])
}
IDS = list(_SCENARIOS)

CAREFUL = {IDS[0]: "reply", IDS[1]: "nothing", IDS[2]: "odd"}
SLOPPY = {**CAREFUL, IDS[3]: "nothing"}


async def _play(context: AssistantContext, plan: dict[str, str]) -> AssistantTurn:
    how = plan.get(context.scenario_id, "reference")
    if how == "nothing" or (how == "odd" and context.trial % 2 == 1):
        return AssistantTurn(content="Sorry, I cannot do that.")
    view = ReferenceView(_SCENARIOS[context.scenario_id])
    turn = await OracleAssistant().respond(dataclasses.replace(context, reference=view))
    if how == "reply" and not turn.tool_calls:
        return AssistantTurn(content="All set.")
    return turn


async def careful(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]], context: AssistantContext
) -> AssistantTurn:
    """The reference, except: its own reply on IDS[0] (whose second milestone is the
    reference's reply), nothing on IDS[1], nothing on odd trials of IDS[2].
    """
    return await _play(context, CAREFUL)


async def sloppy(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]], context: AssistantContext
) -> AssistantTurn:
    """`careful`, and nothing on IDS[3] either."""
    return await _play(context, SLOPPY)
