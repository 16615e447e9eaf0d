"""Which suite version each run is scored against, and the refusal to mix versions.

Scores against different versions of a suite (`toolplay.scenarios._errata`) are not comparable:
a corrected gold answer changes who passes. `compare` and `audit` refuse such runs, naming
them by version, unless told otherwise. A run folder without a configuration (copied without
`config.json` and the store) is taken to be at the original version, `none`.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolplay.analysis._run_data import ReportError, RunData
from toolplay.runs import run_version

__all__ = ["check_versions", "version_of"]


def version_of(run: RunData) -> str:
    """The run's suite version, with its errata file when it has one."""
    found = run.config.suite_version if run.config is not None else None
    if found is None:
        return run_version(run.config)
    return f"{found.version} ({found.errata})"


def check_versions(labels: Sequence[str], runs: Sequence[RunData], *, mixed: bool) -> str:
    """The one version the runs share (a `; `-joined list when `mixed` allows several).

    Raises:
        ReportError: The runs are at different versions and `mixed` is False (naming them).
    """
    groups: dict[str, list[str]] = {}
    for label, run in zip(labels, runs, strict=True):
        groups.setdefault(version_of(run), []).append(label)
    if len(groups) <= 1 or mixed:
        return "; ".join(groups) or "none"
    listed = "; ".join(f"{', '.join(names)} at {version}" for version, names in groups.items())
    raise ReportError(
        f"the runs are scored against different suite versions ({listed}); re-score them to "
        "one (toolplay score RUN --errata FILE --suite-version V) or pass --mixed-versions"
    )
