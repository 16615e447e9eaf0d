"""What a method's aggregator returns for a run: typed metrics, per category, and its section.

A scorer's aggregator turns the scored records of a run into a `MethodSummary`, which the run
summary (`toolplay.runs.RunSummary`) embeds: its headline `metrics` (open: each method names its
own, declared with the scorer in the catalog, for the glossary), optionally its own
`by_category` rows, and optionally a `section` of its own model (ToolTalk's counts and splits,
AutoDE's failure counts and spread over trials), filed in the summary under the scorer's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny


class MetricValues(BaseModel):
    """Metric name -> value (None: not defined, e.g. a ratio over nothing)."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, float | int | None] = Field(init=False)

    @classmethod
    def of(cls, values: Mapping[str, float | int | None]) -> MetricValues:
        """Metric values from a mapping."""
        return cls.model_validate(dict(values))

    def values(self) -> dict[str, float | int | None]:
        """The metric values by name."""
        return dict(self.__pydantic_extra__ or {})

    def get(self, name: str) -> float | int | None:
        """One metric's value (None when absent or not defined)."""
        return (self.__pydantic_extra__ or {}).get(name)


class MethodSummary(BaseModel):
    """One method's part of a run summary."""

    metrics: MetricValues = Field(default_factory=MetricValues)
    by_category: dict[str, MetricValues] | None = None
    section: SerializeAsAny[BaseModel] | None = None
    """The method's own part of the summary (`Scorer.section` is its model), or None."""


class RunAggregate(BaseModel):
    """The methods of a run together: merged metrics and rows, and each method's section."""

    metrics: MetricValues = Field(default_factory=MetricValues)
    by_category: dict[str, MetricValues] | None = None
    sections: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Scorer name -> its section as JSON data (only methods that have one)."""
