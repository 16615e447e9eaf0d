"""Derived variants: world-state variants and tool augmentations of base scenarios.

The full `sandbox` suite is every base scenario under `data/sandbox/` plus its generated
world-state variants, each played under 8 augmentation settings: `none`, `distractors_3`,
`distractors_10`, `distractors_all`, and the four scrambles each on top of 3 distraction tools:
`distractors_3+scrambled_names`, `distractors_3+no_tool_descriptions`,
`distractors_3+no_arg_descriptions`, `distractors_3+no_arg_types` (the 8 settings of the
ToolSandbox paper's table; before, the scrambles applied to the plain base, and `--augment
scrambled_names` on such a suite now selects `distractors_3+scrambled_names`, see
`runs._select`).

Ids: `<base id>` is the plain base, `<base id>~<state variant>` a world-state variant (e.g.
`p_text_bob~cellular_off`), and `@<augmentation>` is appended for an augmented one
(`p_text_bob~cellular_off@scrambled_names`). Every variant keeps `base_id` (the base's id) and
its `categories`; world-state variants add `state_dependency` (and a single tool call becomes
`multiple_tool_call`). Order: augmentation by augmentation, and within one, each base followed
by its world-state variants, so `--limit N` takes plain scenarios first.

World-state variants (`cellular_off`, `wifi_off`, `location_off`, `low_battery`) are derived
from each base's reference solution (`_state_variants`, `_variant_milestones`); the ones that
do not apply are skipped silently, the unsound ones are skipped and listed in
`VariantSet.skipped` with the reason (`toolplay suites` shows them).

A tool the scenario withholds (a minefield forbids calling it, and it is not offered) is added
to the variant's `tools.deny`, so that no distraction tool hands it back to the assistant.
Generation is deterministic and pure; results are memoised per base scenario.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._load import check_against_catalog
from toolplay.scenarios._milestone_spec import ToolCallConstraint
from toolplay.scenarios._model import ReferenceTurn, Scenario
from toolplay.scenarios._state_variants import (
    STATE_VARIANTS,
    Outcome,
    Played,
    VariantSkipped,
    base_replay,
    derive,
    variant_tools,
)
from toolplay.scenarios._variant_milestones import (
    adjusted_milestones,
    adjusted_minefields,
    check_sound,
)
from toolplay.tools import AUGMENTATIONS

logger = logging.getLogger(__name__)

NONE = "none"
"""The augmentation setting of an unaugmented scenario."""

AUGMENTATION_SETTINGS = (
    NONE,
    "distractors_3",
    "distractors_10",
    "distractors_all",
    "distractors_3+scrambled_names",
    "distractors_3+no_tool_descriptions",
    "distractors_3+no_arg_descriptions",
    "distractors_3+no_arg_types",
)
"""The 8 augmentation settings every scenario of the full `sandbox` suite is played under."""

SCRAMBLE_BASE = "distractors_3"
"""The setting the paper's four scrambles are applied on top of."""

STATE_SEPARATOR = "~"
AUGMENTATION_SEPARATOR = "@"
COMPOSE = "+"
"""Joins augmentations applied together, e.g. `scrambled_names+no_docs`."""


@dataclass(frozen=True)
class SkippedVariant:
    """A world-state variant that was not generated because it would be unsound."""

    variant_id: str
    reason: str


@dataclass(frozen=True)
class VariantSet:
    """Generated scenarios and the unsound variants left out."""

    scenarios: list[Scenario]
    skipped: list[SkippedVariant] = field(default_factory=list)


def augmentation_of(scenario: Scenario) -> str:
    """The scenario's augmentation setting (`none` when unaugmented)."""
    return scenario.augmentation or NONE


def check_augmentation(name: str) -> None:
    """Refuse an unknown augmentation setting (parts joined by `+` are each checked).

    Raises:
        ValueError: naming the known augmentations.
    """
    if name == NONE:
        return
    unknown = [part for part in name.split(COMPOSE) if part not in AUGMENTATIONS]
    if unknown:
        known = ", ".join([NONE, *AUGMENTATIONS])
        raise ValueError(f"unknown augmentation {unknown[0]!r}; known: {known}")


def augmentation_variant(scenario: Scenario, name: str) -> Scenario:
    """`scenario` played under augmentation `name` (itself for `none`)."""
    check_augmentation(name)
    if name == NONE:
        return scenario
    joined = f"{scenario.augmentation}{COMPOSE}{name}" if scenario.augmentation else name
    separator = COMPOSE if scenario.augmentation else AUGMENTATION_SEPARATOR
    return scenario.model_copy(
        update={
            "id": f"{scenario.id}{separator}{name}",
            "augmentation": joined,
            "base_id": scenario.base_id or scenario.id,
        }
    )


def state_variant(
    base: Scenario,
    name: str,
    context: LoadContext,
    played_base: Played | None = None,
    reads: dict[str, Outcome] | None = None,
) -> Scenario:
    """World-state variant `name` of `base` (see `_state_variants`).

    `played_base` (the base's `base_replay`) and `reads` (read-only tool outcomes) are shared
    between the variants of one base.

    Raises:
        VariantSkipped: when it does not apply, or (`unsound`) cannot be derived soundly.
    """
    registry = context.tools.registry(base.world.domains)
    derivation = derive(base, registry, name, played_base, reads)
    check_sound(base, derivation)
    tools = variant_tools(base, derivation)
    milestones = adjusted_milestones(base, derivation)
    turns: list[ReferenceTurn] = [turn.model_copy(update={"calls": []}) for turn in base.reference]
    for step in derivation.steps:
        turns[step.turn].calls.append(step.call)
    categories = [c for c in base.categories if c != "single_tool_call"]
    if "single_tool_call" in base.categories:
        categories.insert(base.categories.index("single_tool_call"), "multiple_tool_call")
    if "state_dependency" not in categories:
        categories.append("state_dependency")
    settings = {k: v for k, v in derivation.start.items() if k in STATE_VARIANTS[name]}
    variant = base.model_copy(
        update={
            "id": f"{base.id}{STATE_SEPARATOR}{name}",
            "base_id": base.base_id or base.id,
            "description": f"{base.description} [world-state variant {name}: starts with "
            f"{', '.join(f'{k}={v}' for k, v in settings.items())}]".strip(),
            "categories": list(dict.fromkeys(categories)),
            "world": base.world.model_copy(
                update={"tables": {**base.world.tables, "settings": [derivation.start]}}
            ),
            "tools": tools,
            "reference": turns,
            "milestones": milestones,
            "minefields": adjusted_minefields(base),
            "metadata": {**base.metadata, "state_variant": name},
        }
    )
    check_against_catalog(variant, f"variant {variant.id}", context)
    return variant


def with_withheld_denied(scenario: Scenario, context: LoadContext) -> Scenario:
    """Deny every tool a minefield forbids that the scenario does not offer (module docs)."""
    registry = context.tools.registry(scenario.world.domains)
    offered = set(registry.select(scenario.tools.allow, scenario.tools.deny).names())
    forbidden = [
        option.tool
        for minefield in scenario.minefields
        for constraint in minefield.constraints
        if isinstance(constraint, ToolCallConstraint)
        for option in constraint.options()
    ]
    withheld = [
        name
        for name in dict.fromkeys(forbidden)
        if name not in offered and name not in scenario.tools.deny
    ]
    if not withheld:
        return scenario
    tools = scenario.tools.model_copy(update={"deny": [*scenario.tools.deny, *withheld]})
    return scenario.model_copy(update={"tools": tools})


def state_variants(
    base: Scenario, context: LoadContext
) -> tuple[list[Scenario], list[SkippedVariant]]:
    """Every world-state variant of `base` that applies, and the unsound ones left out."""
    registry = context.tools.registry(base.world.domains)
    made: list[Scenario] = []
    skipped: list[SkippedVariant] = []
    reads: dict[str, Outcome] = {}
    try:
        played = base_replay(base, registry, reads)
    except VariantSkipped as skip:
        _note(skipped, base.id, "*", skip)
        return made, skipped
    for name in STATE_VARIANTS:
        try:
            made.append(state_variant(base, name, context, played, reads))
        except VariantSkipped as skip:
            _note(skipped, base.id, name, skip)
    return made, skipped


def _note(skipped: list[SkippedVariant], base_id: str, name: str, skip: VariantSkipped) -> None:
    variant_id = f"{base_id}{STATE_SEPARATOR}{name}"
    logger.debug("%s not generated: %s", variant_id, skip.reason)
    if skip.unsound:
        skipped.append(SkippedVariant(variant_id, skip.reason))


def base_with_variants(
    base: Scenario, context: LoadContext, source: str = "suite"
) -> tuple[list[Scenario], list[SkippedVariant]]:
    """One base as the suite plays it, then its world-state variants (and the unsound ones).

    Raises:
        ScenarioError: when the base is itself a variant (augmentation, `~`/`@` in its id).
    """
    if base.augmentation or STATE_SEPARATOR in base.id or AUGMENTATION_SEPARATOR in base.id:
        raise ScenarioError(
            source,
            "id",
            f"{base.id!r}: a base scenario sets no augmentation and has no ~ or @ in its id "
            "(variants are generated)",
        )
    base = base.model_copy(update={"base_id": base.base_id or base.id})
    base = with_withheld_denied(base, context)
    variants, unsound = state_variants(base, context)
    return [base, *variants], unsound


def expand_variants(
    bases: Sequence[Scenario],
    context: LoadContext,
    augmentations: Sequence[str] = AUGMENTATION_SETTINGS,
    *,
    source: str = "suite",
) -> VariantSet:
    """Bases plus their world-state variants, each under every augmentation setting.

    Raises:
        ScenarioError: when a base is itself a variant (augmentation, `~`/`@` in its id).
    """
    plain: list[Scenario] = []
    skipped: list[SkippedVariant] = []
    for base in bases:
        group, unsound = base_with_variants(base, context, source)
        plain += group
        skipped += unsound
    for item in skipped:
        logger.info("variant %s skipped as unsound: %s", item.variant_id, item.reason)
    scenarios = [augmentation_variant(s, name) for name in augmentations for s in plain]
    return VariantSet(scenarios, skipped)
