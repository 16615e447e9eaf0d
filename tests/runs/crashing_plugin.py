"""A plugin whose mode and scorer fail on one scenario each (harness bugs to be recorded).

`crashy` plays like `dynamic` except on `quick_wifi_on`; `picky` scores like `milestones`
except on `quick_add_contact` (unless `PICKY_FIXED` is set in the environment: the bug fixed).
"""

from __future__ import annotations

import os

from toolplay.catalog import Catalog
from toolplay.conversation import Mode, PlayRequest, play_dynamic
from toolplay.messages import Trajectory
from toolplay.methods.toolsandbox import score_milestones
from toolplay.scenarios import ScenarioSetup
from toolplay.scoring import ScenarioScore, Scorer, ScoringContext


async def crashy(request: PlayRequest) -> Trajectory:
    if request.setup.scenario.id == "quick_wifi_on":
        raise RuntimeError("harness bug")
    return await play_dynamic(request)


def picky(setup: ScenarioSetup, trajectory: Trajectory, context: ScoringContext) -> ScenarioScore:
    if setup.scenario.id == "quick_add_contact" and not os.environ.get("PICKY_FIXED"):
        raise ValueError("scorer bug")
    return score_milestones(setup, trajectory, context)


def register(catalog: Catalog) -> None:
    milestones = catalog.scorer("milestones")
    catalog.add_mode(Mode("crashy", crashy, "dynamic, crashing on quick_wifi_on"))
    catalog.add_scorer(
        Scorer("picky", picky, milestones.aggregate, milestones.metrics, "milestones, picky")
    )
