"""The interval options every command that computes statistics shares (run, score, compare)."""

from __future__ import annotations

from typing import Annotated

import typer
from pydantic import ValidationError

from toolplay.scoring import UncertaintySettings

__all__ = ["CiLevel", "CiResamples", "CiSeed", "ci_settings"]

CiLevel = Annotated[
    float, typer.Option(help="Confidence level of intervals and tests, between 0 and 1.")
]
CiResamples = Annotated[
    int, typer.Option(help="Bootstrap resamples (and random permutations of paired tests).")
]
CiSeed = Annotated[int, typer.Option(help="Seed of the resamples and permutations.")]


def ci_settings(level: float, resamples: int, seed: int) -> UncertaintySettings:
    """The settings, or a usage error naming the flag of the bad value."""
    try:
        return UncertaintySettings(level=level, resamples=resamples, seed=seed)
    except ValidationError as exc:
        problem = exc.errors()[0]
        flag = f"--ci-{str(problem['loc'][0]).replace('_', '-')}"
        message = f"{problem['msg'][:1].lower()}{problem['msg'][1:]} (got {problem['input']!r})"
        raise typer.BadParameter(message, param_hint=flag) from None
