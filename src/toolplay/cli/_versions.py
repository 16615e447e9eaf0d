"""The `--errata` and `--suite-version` options shared by `run` and `score`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from toolplay.runs import RunError, VersionRequest
from toolplay.scenarios import load_errata

Errata = Annotated[
    Path | None,
    typer.Option(
        help="An errata file of the suite (versioned corrections; see docs/audit.md). Without "
        "--suite-version, its latest version."
    ),
]
SuiteVersionFlag = Annotated[
    str | None,
    typer.Option(
        "--suite-version",
        help="The suite version to play or score against: one the errata file defines, or "
        "'none' (the suite as its files are).",
    ),
]


def version_settings(errata: Path | None, version: str | None) -> dict[str, Any]:
    """`RunConfig.suite_version` for a new run from the two options.

    Raises:
        RunError: --suite-version without --errata.
    """
    if errata is None:
        raise RunError("--suite-version: needs --errata FILE (the file that defines it)")
    if version is None:
        versions = load_errata(errata).versions
        if not versions:
            raise RunError(f"--errata: {errata} holds no entries")
        version = versions[-1]
    return {"errata": errata, "version": version}


def version_request(errata: Path | None, version: str | None) -> VersionRequest | None:
    """What `score` is asked to move the run to (None: stay at its version)."""
    if errata is None and version is None:
        return None
    return VersionRequest(errata, version)
