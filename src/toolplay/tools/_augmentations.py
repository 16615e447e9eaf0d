"""ToolSandbox's tool augmentations, as transformations of what the assistant is shown.

- `distractors_3`, `distractors_10`, `distractors_all`: add tools the scenario does not offer,
  taken from every tool its world can run, most similar to the offered tools first (cosine of
  word counts over name and description; ties broken by name, so the choice is deterministic).
  Distraction tools really run: calling one changes the world like any other call.
- `scrambled_names`: every tool gets a meaningless name derived from a hash of its real name
  (stable across runs); the environment maps it back.
- `no_tool_descriptions`, `no_arg_descriptions`, `no_docs` (both): descriptions removed.
- `no_arg_types`: argument types removed from the schema. The tools still validate types, and
  a wrongly typed argument gets an error naming the expected type.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from toolplay.tools._errors import RegistryError
from toolplay.tools._presentation import Augmentation, ToolPresentation, strip_descriptions
from toolplay.tools._registry import Registry

_WORD = re.compile(r"[a-z]+")
_TYPE_KEYS = ("type", "items", "anyOf", "format", "minimum", "maximum")


def _text(schema: dict[str, Any]) -> tuple[str, str]:
    function = schema["function"]
    return function["name"], function.get("description", "")


@lru_cache(maxsize=4096)
def _words(name: str, description: str) -> Counter[str]:
    return Counter(_WORD.findall((name.replace("_", " ") + " " + description).lower()))


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(count * b[word] for word, count in a.items())
    norm = math.sqrt(sum(v * v for v in a.values())) * math.sqrt(sum(v * v for v in b.values()))
    return dot / norm if norm else 0.0


def rank_distractors(offered: ToolPresentation, registry: Registry) -> list[str]:
    """Tools of `registry` not offered, most similar to an offered tool first.

    The ranking depends only on the texts compared, so it is memoised on them: every scenario
    variant with the same offered tools (a suite has hundreds) reuses one ranking instead of
    paying ~2 ms of word-count cosines per conversation.
    """
    shown_real = set(offered.names.values())
    candidates = tuple(
        (name, *_text(registry[name].schema)) for name in registry.names() if name not in shown_real
    )
    return list(_ranked(candidates, tuple(_text(schema) for schema in offered.schemas)))


@lru_cache(maxsize=1024)
def _ranked(
    candidates: tuple[tuple[str, str, str], ...], offered: tuple[tuple[str, str], ...]
) -> tuple[str, ...]:
    offered_words = [_words(*text) for text in offered]

    def similarity(name: str, shown: str, description: str) -> float:
        words = _words(shown, description)
        return max((_cosine(words, other) for other in offered_words), default=0.0)

    scored = sorted((-similarity(*candidate), candidate[0]) for candidate in candidates)
    return tuple(name for _, name in scored)


def add_distractors(count: int | None) -> Augmentation:
    """Add `count` distraction tools (all when None), most similar first."""

    def apply(presentation: ToolPresentation, registry: Registry) -> ToolPresentation:
        chosen = rank_distractors(presentation, registry)
        if count is not None:
            chosen = chosen[:count]
        schemas = presentation.copy_schemas() + [registry[name].schema for name in chosen]
        names = {**presentation.names, **{name: name for name in chosen}}
        return ToolPresentation(tuple(schemas), names)

    return apply


def scrambled_name(real: str) -> str:
    """The stable meaningless name a tool gets under `scrambled_names`."""
    return "tool_" + hashlib.sha256(real.encode()).hexdigest()[:8]


def scramble_names(presentation: ToolPresentation, registry: Registry) -> ToolPresentation:
    """Rename every shown tool to a hash-derived name."""
    schemas = presentation.copy_schemas()
    names: dict[str, str] = {}
    for schema in schemas:
        shown = schema["function"]["name"]
        new = scrambled_name(presentation.names[shown])
        schema["function"]["name"] = new
        names[new] = presentation.names[shown]
    return ToolPresentation(tuple(schemas), names)


def remove_argument_types(presentation: ToolPresentation, registry: Registry) -> ToolPresentation:
    """Drop type information from every argument schema (descriptions and enums stay)."""
    schemas = presentation.copy_schemas()
    for schema in schemas:
        for prop in schema["function"]["parameters"].get("properties", {}).values():
            for key in _TYPE_KEYS:
                prop.pop(key, None)
    return ToolPresentation(tuple(schemas), presentation.names)


AUGMENTATIONS: dict[str, Augmentation] = {
    "distractors_3": add_distractors(3),
    "distractors_10": add_distractors(10),
    "distractors_all": add_distractors(None),
    "scrambled_names": scramble_names,
    "no_tool_descriptions": strip_descriptions(tools=True, arguments=False),
    "no_arg_descriptions": strip_descriptions(tools=False, arguments=True),
    "no_arg_types": remove_argument_types,
    "no_docs": strip_descriptions(tools=True, arguments=True),
}
"""Every augmentation by name (`no_docs` is ToolTalk's documentation ablation)."""


def present(
    offered: Registry, augmentations: Sequence[str] = (), full: Registry | None = None
) -> ToolPresentation:
    """The presentation of `offered` after the named augmentations, in order.

    `full` is every tool the world can run (distraction tools come from it); defaults to
    `offered`.
    """
    presentation = ToolPresentation.plain(offered)
    for name in augmentations:
        if name not in AUGMENTATIONS:
            known = ", ".join(AUGMENTATIONS)
            raise RegistryError(f"unknown augmentation {name!r}; known: {known}")
        presentation = AUGMENTATIONS[name](presentation, full or offered)
    return presentation
