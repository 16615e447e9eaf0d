"""The interval flags (`--ci-level`, `--ci-resamples`, `--ci-seed`) of run, score and compare.

Their help comes from `UncertaintySettings`' field descriptions (one definition). `run` passes
them into its `RunConfig` (`uncertainty`, also reachable as `--option ci_level=...`); `score`
and `compare` build the settings here.
"""

from __future__ import annotations

from typing import Annotated

import typer
from pydantic import ValidationError

from toolplay.stats import UncertaintySettings

__all__ = ["CiLevel", "CiResamples", "CiSeed", "ci_settings"]


def _described(field: str) -> str:
    return UncertaintySettings.model_fields[field].description or ""


CiLevel = Annotated[float | None, typer.Option(help=_described("level"))]
CiResamples = Annotated[int | None, typer.Option(help=_described("resamples"))]
CiSeed = Annotated[int | None, typer.Option(help=_described("seed"))]


def ci_settings(
    level: float | None, resamples: int | None, seed: int | None
) -> UncertaintySettings | None:
    """The settings the flags give (defaults for the others), None when no flag is given.

    Raises:
        typer.BadParameter: A value out of range, naming its flag.
    """
    given = {
        name: value
        for name, value in (("level", level), ("resamples", resamples), ("seed", seed))
        if value is not None
    }
    if not given:
        return None
    try:
        return UncertaintySettings.model_validate(given)
    except ValidationError as exc:
        problem = exc.errors()[0]
        flag = f"--ci-{str(problem['loc'][0]).replace('_', '-')}"
        message = f"{problem['msg'][:1].lower()}{problem['msg'][1:]} (got {problem['input']!r})"
        raise typer.BadParameter(message, param_hint=flag) from None
