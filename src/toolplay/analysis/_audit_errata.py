"""Errata an audit can propose: the corrections its evidence supports, for a person to review.

Only three kinds of evidence are strong enough to draft a correction from:

- `ceiling_fails`: the reference solution fails its own check. Drafted as a withdrawal (the
  item cannot be scored as it stands; a fixed version can come back in a later version).
- `passed_by_floor`: doing nothing passes. Drafted as a withdrawal, unless the scenario tests
  refusing (a reviewer drops the entry then).
- `slot_never_filled` where the runs agree on another value: no trial gave the gold value,
  at least two runs gave the same other value of the gold's type (a string for a string), and
  it is at least half of the wrong answers (`Australian dollar` in the gold, `AUD` in every
  prediction). Drafted as a new gold value
  (`metadata.label.arguments.SLOT`): scoring-only, so stored runs can be re-scored against it.

Everything else (a milestone nobody reaches, an item everyone fails) needs a person to read
the trajectories; the audit flags it and drafts nothing. Drafts carry the version after the
runs' version (`1` after `none`).
"""

from __future__ import annotations

from collections.abc import Sequence

from toolplay.analysis._audit_model import ScenarioAudit
from toolplay.scenarios import ORIGINAL, Erratum

__all__ = ["next_version", "propose_errata"]


def next_version(version: str) -> str:
    """The version after `version` (`none` -> `1`, `1.2` -> `2`)."""
    head = version.split(" ", 1)[0].split(";", 1)[0]
    if head == ORIGINAL or not head.split(".")[0].isdigit():
        return "1"
    return str(int(head.split(".")[0]) + 1)


def propose_errata(items: Sequence[ScenarioAudit], version: str) -> list[Erratum]:
    """Draft corrections for the flagged scenarios (see the module docstring)."""
    target = next_version(version)
    drafts: list[Erratum] = []
    for item in items:
        codes = {flag.code for flag in item.flags}
        if "ceiling_fails" in codes:
            drafts.append(
                Erratum(
                    version=target,
                    scenario=item.id,
                    what="withdrawn",
                    why=f"the reference solution scores {item.ceiling:.3f} on its own check "
                    "(audit: ceiling_fails): the gold or the check is broken",
                    withdraw=True,
                )
            )
            continue
        if "passed_by_floor" in codes:
            drafts.append(
                Erratum(
                    version=target,
                    scenario=item.id,
                    what="withdrawn",
                    why=f"an assistant that never calls a tool passes it (floor {item.floor:.3f};"
                    " audit: passed_by_floor); drop this entry if refusing is what it tests",
                    withdraw=True,
                )
            )
            continue
        for slot in item.slots:
            agreed = (
                slot.correct == 0
                and slot.common is not None
                and slot.common_runs >= 2
                and 2 * slot.common_count >= slot.wrong
                and type(slot.common) is type(slot.gold)
                and "." not in slot.slot
            )
            if not agreed:
                continue
            drafts.append(
                Erratum(
                    version=target,
                    scenario=item.id,
                    what=f"gold {slot.slot} {slot.gold!r} -> {slot.common!r}",
                    why=f"no trial of any run gave {slot.gold!r}; {slot.common_count} of "
                    f"{slot.wrong} wrong answers, from {slot.common_runs} runs, gave "
                    f"{slot.common!r} (audit: slot_never_filled)",
                    set={f"metadata.label.arguments.{slot.slot}": slot.common},
                )
            )
    return drafts
