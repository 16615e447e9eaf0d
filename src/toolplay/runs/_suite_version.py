"""A run at a version of its suite: errata applied when playing and scoring, re-scoring to
another version, and the refusal when a version changes what was played.

A run's config names its errata file and version (`RunConfig.suite_version`; None: the
original, version `none`). `toolplay run --errata FILE --suite-version V` plays and scores the
corrected scenarios; `toolplay score RUN --errata FILE --suite-version V` re-scores the stored
conversations against V when V changes nothing they were played with (`scenarios._errata`:
the played view of every scenario the run holds must be equal under both versions), and
otherwise refuses, naming the scenarios that must be played again. The version the
conversations were played under is kept (`SuiteVersion.played`), so moving between scoring-only
versions and back is always judged against what was really played. The errata file is pinned
like a suite: its absolute path, and a digest of the entries up to the versions in use, so a
later edit of those entries is refused while appending a new version is not.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from toolplay.catalog import Catalog
from toolplay.runs._config import RunConfig, SuiteVersion
from toolplay.runs._preflight import RunError
from toolplay.scenarios import (
    ORIGINAL,
    Errata,
    Scenario,
    Suite,
    apply_errata,
    load_errata,
    played_view,
    version_key,
)

__all__ = [
    "VersionRequest",
    "pin_suite_version",
    "retarget_version",
    "run_version",
    "versioned_scenarios",
]


@dataclass(frozen=True)
class VersionRequest:
    """What `toolplay score` was asked for: an errata file and/or a version (None: the run's)."""

    errata: Path | None = None
    version: str | None = None


def run_version(config: RunConfig | None) -> str:
    """The version a run is scored against (`none` without errata)."""
    if config is None or config.suite_version is None:
        return ORIGINAL
    return config.suite_version.version


def _later(a: str, b: str) -> str:
    return a if version_key(a) >= version_key(b) else b


def _load(path: Path, flag: str) -> Errata:
    errata = load_errata(path)
    if not errata.file.entries:
        raise RunError(f"{flag}: {path} holds no entries")
    return errata


def pin_suite_version(config: RunConfig) -> RunConfig:
    """`config` with its suite version checked: a new run's errata path made absolute and its
    digest taken; a stored run's digest compared with the file as it is now.

    Raises:
        ErrataError: The file is unusable or lacks the version.
        RunError: The entries up to the run's versions changed since it was stored.
    """
    current = config.suite_version
    if current is None:
        return config
    errata = load_errata(current.errata)
    errata.check_version(current.version)
    if current.played is not None:
        errata.check_version(current.played)
    digest = errata.digest(_later(current.version, current.played_under))
    if current.digest is None:
        pinned = current.model_copy(update={"errata": current.errata.resolve(), "digest": digest})
        return config.model_copy(update={"suite_version": pinned})
    if current.digest != digest:
        raise RunError(
            f"{config.out}: the entries of {current.errata} up to version "
            f"{_later(current.version, current.played_under)} changed since the run was "
            "stored (their digest differs); restore them, or add the corrections as a new version"
        )
    return config


def versioned_scenarios(
    config: RunConfig, suite: Suite, scenarios: Sequence[Scenario], catalog: Catalog
) -> list[Scenario]:
    """The selected scenarios at the run's version (withdrawn ones left out)."""
    current = config.suite_version
    if current is None:
        return list(scenarios)
    errata = load_errata(current.errata)
    ids = [e.id for e in suite.entries()]
    return apply_errata(scenarios, errata, current.version, catalog.load_context(), ids).scenarios


def _views(
    scenarios: Sequence[Scenario],
    errata: Errata | None,
    version: str,
    catalog: Catalog,
    ids: Collection[str],
) -> dict[str, object]:
    if errata is None or version == ORIGINAL:
        return {s.id: played_view(s) for s in scenarios}
    found = apply_errata(scenarios, errata, version, catalog.load_context(), ids)
    return {s.id: played_view(s) for s in found.scenarios}


def retarget_version(
    config: RunConfig,
    request: VersionRequest,
    suite: Suite,
    scenarios: Sequence[Scenario],
    held: Collection[str],
    catalog: Catalog,
) -> RunConfig:
    """`config` moved to the version asked for, if its stored conversations still answer it.

    Args:
        config: The stored run's configuration.
        request: The errata file (default: the run's) and version (default: the file's
            latest) asked for.
        suite: The run's suite as its files are.
        scenarios: The run's selected scenarios, as in the files.
        held: Ids of the scenarios the run has stored conversations of.
        catalog: For checking corrected scenarios.

    Raises:
        ErrataError: The file is unusable, lacks the version, or an entry is invalid.
        RunError: The version changes what was played for some held scenario (naming them and
            how to play them again), or no errata file is known.
    """
    current = config.suite_version
    path = request.errata or (current.errata if current is not None else None)
    if path is None:
        raise RunError("--suite-version: the run has no errata file; give one with --errata FILE")
    errata = _load(path.resolve(), "--errata")
    version = errata.check_version(request.version or errata.versions[-1])
    played = current.played_under if current is not None else ORIGINAL
    before_errata: Errata | None = None
    if current is not None:
        before_errata = load_errata(current.errata)
        if played != ORIGINAL and current.errata.resolve() != path.resolve():
            raise RunError(
                f"--errata: the run was played under version {played} of {current.errata}; "
                "re-score it with that file (it defines what was played)"
            )
    ids = [e.id for e in suite.entries()]
    before = _views(scenarios, before_errata, played, catalog, ids)
    after = _views(scenarios, errata, version, catalog, ids)
    replay = sorted(s for s in held if s in before and s in after and before[s] != after[s])
    if replay:
        shown = ", ".join(replay[:5]) + (
            f" (and {len(replay) - 5} more)" if len(replay) > 5 else ""
        )
        raise RunError(
            f"{config.out}: suite version {version} of {path} changes what is played (not only "
            f"how it is scored) in {len(replay)} scenario(s) this run holds: {shown}; their "
            "stored conversations do not answer it, so they must be played again: toolplay run "
            f"--suite {config.suite} --errata {path} --suite-version {version} (a new run)"
        )
    if version == ORIGINAL and played == ORIGINAL:
        return config.model_copy(update={"suite_version": None})
    moved = SuiteVersion(
        errata=path.resolve(),
        version=version,
        played=None if played == version else played,
        digest=errata.digest(_later(version, played)),
    )
    return config.model_copy(update={"suite_version": moved})
