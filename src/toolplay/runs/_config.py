"""The resolved configuration of a run, stored with it.

Every value is checked when the config is built, before anything is loaded or written: a bad
value is refused up front, naming the field (or, for `options`, the option), never discovered
minutes into a run. Options not listed in `_OPTION_CHECKS` are checked by the role or mode
that reads them.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from toolplay.scenarios import check_augmentation

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

_URL_OPTIONS = frozenset({"base_url", "user_base_url"})
_CHOICE_OPTIONS: dict[str, tuple[str, ...]] = {"slot_matching": ("exact", "lenient")}
_OPTION_CHECKS: dict[str, tuple[type, float | None, bool]] = {
    # option: (int or float, lower bound or None, bound allowed)
    "timeout": (float, 0, False),
    "max_retries": (int, 0, True),
    "retry_initial": (float, 0, True),
    "retry_max_wait": (float, 0, True),
    "retry_jitter": (float, 0, True),
    "temperature": (float, 0, True),
    "user_temperature": (float, 0, True),
    "max_tokens": (int, 1, True),
    "seed": (int, None, True),
    "max_calls_per_turn": (int, 1, True),
    "max_rounds": (int, 1, True),
}


def _option_error(option: str, reason: str) -> PydanticCustomError:
    """An error whose context names the option (the CLI shows it as the option's flag)."""
    return PydanticCustomError(
        "run_option", "{option}: {reason}", {"option": option, "reason": reason}
    )


def _check_option(name: str, value: object) -> None:
    if value is None:
        return
    if name in _URL_OPTIONS:
        parts = urlsplit(str(value))
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise _option_error(
                name, f"{value!r} is not an http(s) URL, e.g. http://127.0.0.1:8000/v1"
            )
    if name in _CHOICE_OPTIONS:
        if value not in _CHOICE_OPTIONS[name]:
            raise _option_error(
                name, f"expected one of {', '.join(_CHOICE_OPTIONS[name])}, got {value!r}"
            )
        return
    if name not in _OPTION_CHECKS:
        return
    kind, low, inclusive = _OPTION_CHECKS[name]
    wanted = "an integer" if kind is int else "a number"
    if low is not None:
        wanted += f" {'at least' if inclusive else 'above'} {low:g}"
    numeric = (int,) if kind is int else (int, float)
    usable = (
        isinstance(value, numeric) and not isinstance(value, bool) and math.isfinite(value)
    )
    if usable and low is not None:
        usable = value >= low if inclusive else value > low  # type: ignore[operator]
    if not usable:
        raise _option_error(name, f"expected {wanted}, got {value!r}")


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

    @field_validator("augment")
    @classmethod
    def _known_augmentations(cls, names: list[str]) -> list[str]:
        for name in names:
            check_augmentation(name)
        return names

    @field_validator("options")
    @classmethod
    def _usable_options(cls, options: dict[str, object]) -> dict[str, object]:
        for name, value in options.items():
            _check_option(name, value)
        return options
