"""Which scenarios a run covers: `--augment` selection or application, `--category`, `--limit`.

`--augment NAME` (repeatable; `none` means unaugmented) means one of two things:

- on a suite whose scenarios carry augmentation variants (like `sandbox`, where every
  scenario exists under 8 augmentation settings), it SELECTS the variants with those
  settings; a name the suite does not carry is refused, naming the ones it does;
- on a suite without variants (`quick`, `tooltalk:DIR`, a folder), it APPLIES each named
  augmentation to every scenario, creating the variants on the fly (`<id>@<name>`, as in
  the built-in suites); several names give one variant per name, and `a+b` applies two
  augmentations together.

`--category NAME` (repeatable) keeps the scenarios with any of the named categories (a
variant has its base's). Either way the result depends only on the suite and the stored
`augment` and `categories` lists, so `--resume` and `toolplay score` find the same scenarios
again. Order: the suite's order, augmentation by augmentation when applying; `--limit` cuts
the result. Only the scenarios selected are built (a lazy suite, `toolplay.scenarios._lazy`,
builds each on first use).
"""

from __future__ import annotations

from collections.abc import Sequence

from toolplay.errors import InputError
from toolplay.scenarios import COMPOSE, SCRAMBLE_BASE, Scenario, Suite, augmentation_variant

__all__ = ["SelectionError", "carried_augmentations", "select_scenarios"]


class SelectionError(InputError):
    """`--augment` names something the suite cannot provide."""


def carried_augmentations(suite: Suite) -> list[str]:
    """The augmentation settings a suite's scenarios carry (empty: the suite has none)."""
    entries = suite.entries()
    if not any(e.augmentation for e in entries):
        return []
    return list(dict.fromkeys(e.setting for e in entries))


def select_scenarios(
    suite: Suite,
    limit: int | None,
    augment: Sequence[str] = (),
    categories: Sequence[str] = (),
) -> list[Scenario]:
    """The scenarios a run covers (see the module docstring).

    Raises:
        SelectionError: for an augmentation the suite does not carry or that is unknown, or
            categories no scenario has.
    """
    names = list(dict.fromkeys(augment))
    wanted = set(categories)
    entries = suite.entries()
    keep = [i for i, e in enumerate(entries) if not wanted or wanted & set(e.categories)]
    if wanted and not keep:
        known = sorted({c for e in entries for c in e.categories})
        raise SelectionError(
            f"suite {suite.name!r}: no scenario matches category "
            f"{', '.join(sorted(wanted))}; its categories: {', '.join(known) or 'none'}"
        )
    if not names:
        # only the selected scenarios are built (a lazy suite builds each on first use)
        return [suite.scenarios[i] for i in (keep[:limit] if limit else keep)]
    if carried := carried_augmentations(suite):
        missing = [n for n in names if n not in carried]
        renamed = [n for n in missing if f"{SCRAMBLE_BASE}{COMPOSE}{n}" in carried]
        if renamed:
            new = f"{SCRAMBLE_BASE}{COMPOSE}{renamed[0]}"
            raise SelectionError(
                f"suite {suite.name!r} applies {renamed[0]!r} on top of 3 distraction tools, "
                f"as the ToolSandbox paper does: use --augment {new} (settings carried: "
                f"{', '.join(carried)})"
            )
        if missing:
            raise SelectionError(
                f"suite {suite.name!r} carries augmentation variants {', '.join(carried)}; "
                f"{missing[0]!r} is not one of them (to apply it, run the base scenarios "
                f"from a folder, e.g. --suite {suite.source or 'PATH'})"
            )
        picked = [i for i in keep if entries[i].setting in names]
        chosen = [suite.scenarios[i] for i in (picked[:limit] if limit else picked)]
    else:
        chosen = []
        for name in names:
            try:
                chosen += [augmentation_variant(suite.scenarios[i], name) for i in keep]
            except ValueError as exc:
                raise SelectionError(str(exc)) from None
    return chosen[:limit] if limit else chosen
