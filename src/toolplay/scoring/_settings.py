"""Scoring settings: typed choices that change what a score means, stored with the run.

They are part of a run's configuration (`RunConfig.scoring`, reachable with `--option KEY=VALUE`)
and of its identity, and `toolplay score` reads them back from the stored configuration, so a
re-score means what the run meant. The core has none of its own: each scorer declares its
settings as a `Settings` model (`Scorer.settings`, e.g. AutoDE's `slot_matching`), whose fields
the run's `ScoringSettings` holds by name; a scorer reads its own from
`ScoringContext.settings.of(ItsSettings)`.
"""

from __future__ import annotations

from toolplay.settings import SettingsBag


class ScoringSettings(SettingsBag):
    """Settings of scoring that change results: the scorers' own fields (None: the default)."""
