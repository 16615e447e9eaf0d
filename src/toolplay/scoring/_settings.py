"""Scoring settings: typed choices that change what a score means, stored with the run.

They are part of a run's configuration (`RunConfig.scoring`, reachable with `--option KEY=VALUE`)
and of its identity, and `toolplay score` reads them back from the stored configuration, so a
re-score means what the run meant. Scorers read them from `ScoringContext.settings`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SlotMatching = Literal["exact", "lenient"]


class ScoringSettings(BaseModel):
    """Settings of scoring that change results (None: the default)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    slot_matching: SlotMatching | None = Field(
        default=None,
        description="AutoDE slots: 'exact' (the reference's rules, the default) or 'lenient' "
        "(declared defaults forgiven, a scenario's accepted alternatives and 3 == 3.0 counted "
        "correct; toolplay's own scripts).",
    )

    @property
    def matching(self) -> SlotMatching:
        """The slot matching, default filled in."""
        return self.slot_matching or "exact"

    def changed(self) -> dict[str, object]:
        """The settings given (those that differ from the defaults), by name."""
        return self.model_dump(exclude_none=True)
