"""Scoring: pure functions from recorded trajectories to scores, and run aggregates."""

from toolplay.scoring._dispatch import AGGREGATORS, SCORERS, aggregate, score_trajectory
from toolplay.scoring._result import ScenarioScore, ScoringContext, TextSimilarity
from toolplay.scoring._state import final_world, reference_world, score_state

__all__ = [
    "AGGREGATORS",
    "SCORERS",
    "ScenarioScore",
    "ScoringContext",
    "TextSimilarity",
    "aggregate",
    "final_world",
    "reference_world",
    "score_state",
    "score_trajectory",
]
