"""What an Inspect task of toolplay plays: the suite's chosen scenarios, the mode, the user.

A task is resolved by the same run plan as `toolplay run` (`runs.resolve_run`): the
scenarios are chosen exactly as a run chooses them (the augmentation settings, `category`,
then `limit`), the mode is the suite's name for it (`Suite.mode`), looked up in the catalog,
so a suite's own modes (AutoDE's `static`) and a plugin's modes plug in by name, and the
presentation is the suite's.

The user is a toolplay user spec (`scripted`, or any user kind of the catalog) or `model`: a
model-driven user played by Inspect's `user` model role.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import get_model
from pydantic import BaseModel, ConfigDict, Field

from toolplay import __version__
from toolplay.catalog import Catalog
from toolplay.conversation import Mode, PlaySettings
from toolplay.integrations.inspect._records import SCENARIO_KEY
from toolplay.integrations.inspect._roles import USER_ROLE, InspectUser
from toolplay.roles import Presentation, User
from toolplay.runs import RunConfig, RunError, resolve_run, scenario_info
from toolplay.scenarios import Scenario, Suite
from toolplay.scoring import ScoringContext

MODEL_USER = "model"
"""The `user` task parameter naming Inspect's `user` model role."""


class Selection(BaseModel):
    """How a task chose its scenarios and plays them (kept in the task's metadata)."""

    model_config = ConfigDict(extra="forbid")

    suite: str = Field(description="The suite spec, as for `toolplay run --suite`.")
    suite_name: str = ""
    mode: str | None = Field(default=None, description="The mode asked for (None: the suite's).")
    catalog_mode: str = Field(default="", description="The catalog mode that plays it.")
    user: str = "scripted"
    augment: list[str] = Field(default_factory=list)
    categories: list[str] = Field(default_factory=list)
    limit: int | None = None
    play: PlaySettings = Field(default_factory=PlaySettings)
    plugins: list[str] = Field(default_factory=list)
    toolplay_version: str = __version__


def names(value: str | Sequence[str] | None) -> list[str]:
    """A task parameter naming one or more things: a list, or a comma-separated string."""
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    return [str(item).strip() for item in items if str(item).strip()]


@dataclass(frozen=True)
class TaskPlan:
    """A task's resolved parts, built once when the task is created."""

    catalog: Catalog
    suite: Suite
    scenarios: Mapping[str, Scenario]
    mode: Mode
    selection: Selection
    context: ScoringContext
    presentation: Presentation
    """The suite's presentation: the system text and tools the conversation shows (Inspect
    builds the model's requests its own way)."""

    def scenario(self, sample_id: str | int) -> Scenario:
        """The scenario a sample plays."""
        return self.scenarios[str(sample_id)]

    def user(self) -> User:
        """A fresh user for one sample (Inspect's `user` model role for `model`)."""
        if self.selection.user == MODEL_USER:
            return InspectUser(get_model(role=USER_ROLE, required=True))
        return self.catalog.build_user(self.selection.user, presentation=self.presentation)

    def samples(self) -> MemoryDataset:
        """One Inspect sample per scenario, in the suite's order."""
        return MemoryDataset(
            [_sample(scenario) for scenario in self.scenarios.values()],
            name=self.suite.name,
        )


def _sample(scenario: Scenario) -> Sample:
    opening = scenario.script[0] if scenario.script else scenario.description or scenario.id
    metadata: dict[str, Any] = {SCENARIO_KEY: scenario_info(scenario).model_dump(mode="json")}
    return Sample(id=scenario.id, input=opening, metadata=metadata)


def build_plan(
    suite: str,
    *,
    mode: str | None = None,
    augment: str | Sequence[str] | None = None,
    category: str | Sequence[str] | None = None,
    limit: int | None = None,
    user: str = "scripted",
    settings: PlaySettings | None = None,
    plugins: str | Sequence[str] | None = None,
) -> TaskPlan:
    """Load the suite and choose its scenarios (see the module docstring).

    Raises:
        ValueError: (an `InputError`: the run plan's, scenario loading's and selection's own)
            naming the parameter that is wrong: no scenario chosen, an unknown mode or user.
    """
    selection = Selection(
        suite=suite,
        mode=mode,
        user=user,
        augment=names(augment),
        categories=names(category),
        limit=limit,
        play=settings or PlaySettings(),
        plugins=names(plugins),
    )
    config = RunConfig(
        suite=suite,
        mode=mode,
        augment=selection.augment,
        categories=selection.categories,
        limit=limit,
        play=selection.play,
        plugins=selection.plugins,
    )
    plan = resolve_run(config, intent="play")
    if not plan.scenarios:
        raise RunError(f"suite {suite!r}: no scenario matches {selection.model_dump()}")
    if user != MODEL_USER:  # an unknown user kind fails now, naming the known ones
        plan.catalog.build_user(user, presentation=plan.presentation)
    selection = selection.model_copy(
        update={"suite_name": plan.suite.name, "catalog_mode": plan.mode_name}
    )
    return TaskPlan(
        catalog=plan.catalog,
        suite=plan.suite,
        scenarios={s.id: s for s in plan.scenarios},
        mode=plan.mode,
        selection=selection,
        context=plan.scoring_context(),
        presentation=plan.presentation,
    )
