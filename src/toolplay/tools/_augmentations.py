"""ToolSandbox's tool augmentations, as transformations of what the assistant is shown.

- `distractors_3`, `distractors_10`, `distractors_all`: add tools the scenario does not offer,
  chosen as the reference chooses them (`rank_tools_by_similarity`): tools of the same domain
  as an offered tool first, then the rest, each part sorted by the best fuzzy name similarity
  (rapidfuzz's `WRatio` after its default processing, the reference's measure) to an offered
  tool, ties kept in registry order. A scenario may carry its own ranking
  (`tools.distractors`; the exported `toolsandbox` suite carries the reference's). The offered
  and distraction tools are then shuffled with a seed derived from their names, so position
  does not give the needed tools away and the same scenario shows the same order every run.
  Distraction tools really run: calling one changes the world like any other call.
- `scrambled_names`: every tool gets a generic name, `<domain>_<number>` (numbered within its
  domain in name order, as the reference's `<module>_<number>`); the environment maps it back.
- `no_tool_descriptions`, `no_arg_descriptions`, `no_docs` (both): descriptions removed.
- `no_arg_types`: argument types removed from the schema. The tools still validate types, and
  a wrongly typed argument gets an error naming the expected type.

The paper's eight settings apply the four scrambles on top of 3 distraction tools
(`distractors_3+scrambled_names`, ...; see `toolplay.scenarios._variants`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from functools import lru_cache

from toolplay.tools._errors import RegistryError
from toolplay.tools._presentation import Augmentation, ToolPresentation, strip_descriptions
from toolplay.tools._registry import Registry

_TYPE_KEYS = ("type", "items", "anyOf", "format", "minimum", "maximum")


@lru_cache(maxsize=65536)
def _name_similarity(name: str, targets: tuple[str, ...]) -> float:
    """The best WRatio of `name` against `targets` (the reference's ranking key).

    Memoised: every variant of a scenario offers the same tools, so a suite ranks the same
    names hundreds of times (the ranking is a measurable share of a conversation's CPU).
    """
    from rapidfuzz import fuzz, process, utils  # noqa: PLC0415 (start-up time: first use)

    found = process.extract(name, targets, scorer=fuzz.WRatio, processor=utils.default_process)
    return max((score for _, score, _ in found), default=0.0)


def rank_distractors(
    offered: ToolPresentation, registry: Registry, ranking: Sequence[str] | None = None
) -> list[str]:
    """Tools of `registry` not offered, best distraction first (module docstring).

    `ranking` (a scenario's own order of preference) replaces the rule; names not in
    `registry` or already offered are skipped.
    """
    shown_real = list(dict.fromkeys(offered.names.values()))
    if ranking is not None:
        return [n for n in dict.fromkeys(ranking) if n in registry.tools and n not in shown_real]
    domains = {registry[name].domain for name in shown_real if name in registry.tools}
    candidates = [name for name in registry.names() if name not in shown_real]
    same = [n for n in candidates if registry[n].domain in domains]
    other = [n for n in candidates if registry[n].domain not in domains]
    if not shown_real:
        return candidates

    def key(name: str) -> float:
        return _name_similarity(name, tuple(shown_real))

    return sorted(same, key=key, reverse=True) + sorted(other, key=key, reverse=True)


def shuffled(presentation: ToolPresentation) -> ToolPresentation:
    """The same tools in an order shuffled with a seed taken from their real names."""
    order = sorted(range(len(presentation.schemas)), key=lambda i: _real(presentation, i))
    seed = hashlib.sha256("|".join(_real(presentation, i) for i in order).encode()).hexdigest()
    random.Random(seed).shuffle(order)
    return ToolPresentation(tuple(presentation.schemas[i] for i in order), presentation.names)


def _real(presentation: ToolPresentation, i: int) -> str:
    return presentation.names[presentation.schemas[i]["function"]["name"]]


def add_distractors(count: int | None, ranking: Sequence[str] | None = None) -> Augmentation:
    """Add `count` distraction tools (all when None), best first, then shuffle the list."""

    def apply(presentation: ToolPresentation, registry: Registry) -> ToolPresentation:
        chosen = rank_distractors(presentation, registry, ranking)
        if count is not None:
            chosen = chosen[:count]
        schemas = presentation.copy_schemas() + [registry[name].schema for name in chosen]
        names = {**presentation.names, **{name: name for name in chosen}}
        return shuffled(ToolPresentation(tuple(schemas), names))

    return apply


def scrambled_name(real: str, registry: Registry) -> str:
    """The generic name a tool gets under `scrambled_names`: `<domain>_<number>`, numbered
    within its domain in name order, as the reference names them `<module>_<number>`.
    """
    domain = registry[real].domain
    siblings = sorted(name for name in registry.names() if registry[name].domain == domain)
    return f"{domain}_{siblings.index(real)}"


def scramble_names(presentation: ToolPresentation, registry: Registry) -> ToolPresentation:
    """Rename every shown tool to its generic `<domain>_<number>` name."""
    schemas = presentation.copy_schemas()
    names: dict[str, str] = {}
    for schema in schemas:
        shown = schema["function"]["name"]
        real = presentation.names[shown]
        new = scrambled_name(real, registry) if real in registry.tools else shown
        schema["function"]["name"] = new
        names[new] = real
    return ToolPresentation(tuple(schemas), names)


def remove_argument_types(presentation: ToolPresentation, registry: Registry) -> ToolPresentation:
    """Drop type information from every argument schema (descriptions and enums stay)."""
    schemas = presentation.copy_schemas()
    for schema in schemas:
        for prop in schema["function"]["parameters"].get("properties", {}).values():
            for key in _TYPE_KEYS:
                prop.pop(key, None)
    return ToolPresentation(tuple(schemas), presentation.names)


DISTRACTOR_COUNTS: dict[str, int | None] = {
    "distractors_3": 3,
    "distractors_10": 10,
    "distractors_all": None,
}


AUGMENTATIONS: dict[str, Augmentation] = {
    **{name: add_distractors(count) for name, count in DISTRACTOR_COUNTS.items()},
    "scrambled_names": scramble_names,
    "no_tool_descriptions": strip_descriptions(tools=True, arguments=False),
    "no_arg_descriptions": strip_descriptions(tools=False, arguments=True),
    "no_arg_types": remove_argument_types,
    "no_docs": strip_descriptions(tools=True, arguments=True),
}
"""Every augmentation by name (`no_docs` is ToolTalk's documentation ablation)."""


def present(
    offered: Registry,
    augmentations: Sequence[str] = (),
    full: Registry | None = None,
    distractors: Sequence[str] | None = None,
) -> ToolPresentation:
    """The presentation of `offered` after the named augmentations, in order.

    `full` is every tool the world can run (distraction tools come from it); defaults to
    `offered`. `distractors` is the scenario's own ranking of distraction tools, if any.
    """
    presentation = ToolPresentation.plain(offered)
    for name in augmentations:
        if name not in AUGMENTATIONS:
            known = ", ".join(AUGMENTATIONS)
            raise RegistryError(f"unknown augmentation {name!r}; known: {known}")
        if name in DISTRACTOR_COUNTS and distractors is not None:
            augmentation = add_distractors(DISTRACTOR_COUNTS[name], distractors)
        else:
            augmentation = AUGMENTATIONS[name]
        presentation = augmentation(presentation, full or offered)
    return presentation
