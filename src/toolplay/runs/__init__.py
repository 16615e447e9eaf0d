"""Runs: configuration, execution over a suite, summaries, re-scoring."""

from toolplay.runs._cache import CacheError, SqliteResponseCache
from toolplay.runs._config import OPERATIONAL_OPTIONS, Mode, RunConfig
from toolplay.runs._modes import MODES, PlayFunction
from toolplay.runs._preflight import RunError
from toolplay.runs._runner import (
    default_context,
    execute_run,
    load_summary,
    open_run,
    rescore_run,
    role_settings,
    trajectory_records,
)
from toolplay.runs._select import SelectionError, carried_augmentations, select_scenarios
from toolplay.runs._summary import build_summary
from toolplay.runs._trials import pass_hat_k, succeeded, trial_statistics
from toolplay.runs._uncertainty import RunUncertainty, run_uncertainty

__all__ = [
    "MODES",
    "OPERATIONAL_OPTIONS",
    "CacheError",
    "SqliteResponseCache",
    "pass_hat_k",
    "role_settings",
    "succeeded",
    "trial_statistics",
    "Mode",
    "PlayFunction",
    "RunConfig",
    "RunError",
    "RunUncertainty",
    "run_uncertainty",
    "build_summary",
    "default_context",
    "execute_run",
    "load_summary",
    "open_run",
    "rescore_run",
    "SelectionError",
    "carried_augmentations",
    "select_scenarios",
    "trajectory_records",
]
