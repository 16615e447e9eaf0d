"""Scenario-level score records and the context scorers may need."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

TextSimilarity = Callable[[Sequence[str], Sequence[str]], list[float]]
"""Pairwise similarity of two equally long lists of texts (e.g. embedding cosine)."""


class ScenarioScore(BaseModel):
    """The score of one trajectory with the evidence behind it.

    `score` is None when the scenario could not be evaluated (an infrastructure error):
    such records are listed, never averaged.
    """

    scenario_id: str
    trial: int = 0
    evaluation: str
    score: float | None
    details: dict[str, Any] = Field(default_factory=dict)


@dataclass
class ScoringContext:
    """Shared, lazily built resources for scorers (embedding model, ...)."""

    similarity_factory: Callable[[], TextSimilarity] | None = None
    info: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    """Scoring options of the run (e.g. `slot_matching`), kept with it so a re-score agrees."""
    _similarity: TextSimilarity | None = None

    def similarity(self) -> TextSimilarity:
        """The text similarity function, built on first use."""
        if self._similarity is None:
            if self.similarity_factory is None:
                raise RuntimeError("this scorer needs a text similarity model; none configured")
            self._similarity = self.similarity_factory()
        return self._similarity
