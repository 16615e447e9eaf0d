"""What a method's aggregator returns for a run: typed metrics, per category, per split.

A scorer's aggregator turns the scored records of a run into a `MethodSummary`, which the run
summary (`toolplay.runs.RunSummary`) embeds. `MetricValues` is open: each method names its own
metrics (declared with the scorer in the catalog, for the glossary), and a few methods add
structured parts (AutoDE's failure counts and spread over trials, ToolTalk's counts and
splits), which have fields of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from toolplay.scoring._evidence import ToolTalkCounts


class TrialSpread(BaseModel):
    """A metric's spread over trials: mean and sample standard deviation of per-trial values."""

    mean: float | None
    std: float | None


class MetricValues(BaseModel):
    """Metric name -> value (None: not defined, e.g. a ratio over nothing)."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, float | int | None] = Field(init=False)

    failures: dict[str, int] | None = Field(
        default=None, description="AutoDE: dialogues per failure reason."
    )
    failure_reasons: dict[str, int] | None = Field(
        default=None,
        description="AutoDE: failed dialogues per reason in the reference's wording (a parse "
        "failure's text cut after its colon).",
    )
    over_trials: dict[str, TrialSpread] | None = Field(
        default=None, description="AutoDE: each metric's mean and spread over trials."
    )

    @model_serializer(mode="wrap")
    def _without_absent_parts(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Leave out the structured parts a method does not have (they are None)."""
        data: dict[str, Any] = handler(self)
        for name in ("failures", "failure_reasons", "over_trials"):
            if data.get(name) is None:
                data.pop(name, None)
        return data

    @classmethod
    def of(
        cls,
        values: Mapping[str, float | int | None],
        *,
        failures: Mapping[str, int] | None = None,
        failure_reasons: Mapping[str, int] | None = None,
        over_trials: Mapping[str, TrialSpread] | None = None,
    ) -> MetricValues:
        """Metric values from a mapping, with the optional structured parts."""
        data: dict[str, Any] = dict(values)
        if failures is not None:
            data["failures"] = dict(failures)
        if failure_reasons is not None:
            data["failure_reasons"] = dict(failure_reasons)
        if over_trials is not None:
            data["over_trials"] = dict(over_trials)
        return cls.model_validate(data)

    def values(self) -> dict[str, float | int | None]:
        """The plain metric values (the structured parts left out)."""
        return dict(self.__pydantic_extra__ or {})

    def get(self, name: str) -> float | int | None:
        """One metric's value (None when absent or not defined)."""
        return (self.__pydantic_extra__ or {}).get(name)


class ToolTalkTotals(ToolTalkCounts):
    """ToolTalk's counts summed over conversations."""

    conversations: int = 0


class ToolTalkGroup(BaseModel):
    """ToolTalk's metrics over a group of conversations (a split, or all of them)."""

    counts: ToolTalkTotals
    metrics: MetricValues
    error_types: dict[str, int]


class MethodSummary(BaseModel):
    """One method's part of a run summary."""

    metrics: MetricValues = Field(default_factory=MetricValues)
    by_category: dict[str, MetricValues] | None = None
    counts: ToolTalkTotals | None = None
    error_types: dict[str, int] | None = None
    splits: dict[str, ToolTalkGroup] | None = None
