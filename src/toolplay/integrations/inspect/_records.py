"""Where toolplay's records sit in an Inspect log, and how they are read back.

A sample's `store` holds the whole trajectory under `TRAJECTORY_KEY` (messages, tool calls,
world changes, termination, usage); its score's `metadata` holds toolplay's `ScenarioScore`
under `SCORE_KEY`, with the evidence; the sample's `metadata` holds the scenario's
`ScenarioInfo` under `SCENARIO_KEY`; the task's `metadata` holds how the scenarios were chosen
under `TASK_KEY`. The metrics and the importer rebuild toolplay's records from these alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolplay.messages import ScenarioInfo
from toolplay.scenarios import Scenario, WorldSpec
from toolplay.scoring import ScenarioScore, Scored

TRAJECTORY_KEY = "toolplay_trajectory"
SCORE_KEY = "toolplay_score"
SCENARIO_KEY = "toolplay_scenario"
TASK_KEY = "toolplay"
EMBEDDING_KEY = "embedding_model"


def stand_in(scenario_id: str, info: ScenarioInfo) -> Scenario:
    """A scenario carrying only what aggregation and summaries read (id, categories, method,
    split, augmentation): the log holds no worlds or references, and needs none for this.
    """
    return Scenario(
        id=scenario_id,
        description=info.description,
        categories=list(info.categories),
        world=WorldSpec(domains=[]),
        evaluation=info.evaluation,
        split=info.split,
        augmentation=info.augmentation,
        base_id=info.base_id,
    )


def scored_record(
    score_metadata: Mapping[str, Any] | None, sample_metadata: Mapping[str, Any] | None
) -> Scored | None:
    """Toolplay's scored record from an Inspect score and its sample (None: not toolplay's)."""
    if not score_metadata or SCORE_KEY not in score_metadata:
        return None
    score = ScenarioScore.model_validate(score_metadata[SCORE_KEY])
    info = ScenarioInfo.model_validate((sample_metadata or {}).get(SCENARIO_KEY) or {})
    if not info.evaluation:
        info = info.model_copy(update={"evaluation": score.evaluation})
    return Scored(stand_in(score.scenario_id, info), score)
