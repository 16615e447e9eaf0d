"""A whole run: configuration, execution over a suite, summaries, re-scoring.

(One conversation is `toolplay.conversation`.)
"""

from toolplay.runs._baselines import (
    BASELINES_FILE,
    CEILING,
    FLOOR,
    Baselines,
    load_baselines,
    play_baselines,
    save_baselines,
)
from toolplay.runs._cache import CacheError, SqliteResponseCache
from toolplay.runs._config import (
    CONFIG_VERSION,
    OptionError,
    RunConfig,
    apply_options,
    migrate_config,
    option_keys,
    run_identity,
)
from toolplay.runs._executor import Executor, LocalExecutor
from toolplay.runs._lines import (
    TRAJECTORY_LINE,
    ChangeLine,
    HeaderLine,
    MessageLine,
    ScoreLine,
    TrajectoryLine,
)
from toolplay.runs._preflight import RunError
from toolplay.runs._resume import default_out, stored_settings
from toolplay.runs._runner import (
    RunStats,
    execute_run,
    load_summary,
    open_run,
    rescore_run,
    role_settings,
    stored_config,
    trajectory_records,
)
from toolplay.runs._schemas import SCHEMAS, json_schema
from toolplay.runs._select import SelectionError, carried_augmentations, select_scenarios
from toolplay.runs._summary import (
    SUMMARY_VERSION,
    ErrorEntry,
    MissingEntry,
    RunHeader,
    RunSummary,
    build_summary,
)
from toolplay.runs._trial import TrialOutcome, scenario_info
from toolplay.runs._trials import TrialStatistics, succeeded, trial_statistics
from toolplay.runs._uncertainty import RunUncertainty, run_uncertainty

__all__ = [
    "CEILING",
    "FLOOR",
    "BASELINES_FILE",
    "Baselines",
    "Executor",
    "LocalExecutor",
    "TrialOutcome",
    "load_baselines",
    "play_baselines",
    "save_baselines",
    "SCHEMAS",
    "TRAJECTORY_LINE",
    "ChangeLine",
    "HeaderLine",
    "MessageLine",
    "ScoreLine",
    "TrajectoryLine",
    "json_schema",
    "CONFIG_VERSION",
    "SUMMARY_VERSION",
    "CacheError",
    "ErrorEntry",
    "MissingEntry",
    "OptionError",
    "RunConfig",
    "RunError",
    "RunHeader",
    "RunStats",
    "RunSummary",
    "RunUncertainty",
    "SelectionError",
    "SqliteResponseCache",
    "TrialStatistics",
    "apply_options",
    "build_summary",
    "carried_augmentations",
    "default_out",
    "execute_run",
    "load_summary",
    "migrate_config",
    "open_run",
    "option_keys",
    "rescore_run",
    "role_settings",
    "run_identity",
    "run_uncertainty",
    "scenario_info",
    "select_scenarios",
    "stored_config",
    "stored_settings",
    "succeeded",
    "trajectory_records",
    "trial_statistics",
]
