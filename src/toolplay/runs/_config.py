"""The resolved configuration of a run, stored with it."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Mode = Literal["static", "dynamic"]

OPERATIONAL_OPTIONS = frozenset(
    {
        "cache",
        "timeout",
        "max_retries",
        "retry_initial",
        "retry_max_wait",
        "retry_jitter",
        "local_threads",
    }
)
"""Options that change how a run is carried out but not its results: `--resume` may change
them, and they are left out of the run's identity."""


class RunConfig(BaseModel):
    """Everything that determines a run's results (secrets are never part of it)."""

    model_config = ConfigDict(extra="forbid")

    suite: str = "quick"
    mode: Mode | None = Field(default=None, description="None: the suite's default mode.")
    assistant: str = "oracle"
    user: str = "scripted"
    limit: int | None = Field(default=None, ge=1)
    out: Path = Path("runs/latest")
    concurrency: int = Field(default=1, ge=1)
    trials: int = Field(default=1, ge=1)
    resume: bool = False
    system_prompt: str | None = None
    augment: list[str] = Field(
        default_factory=list,
        description="Augmentation settings (`none` = unaugmented): selects a suite's "
        "augmentation variants, or applies them to a suite without variants.",
    )
    options: dict[str, object] = Field(
        default_factory=dict, description="Role and mode options (base_url, timeouts, caps)."
    )
