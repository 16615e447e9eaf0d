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
    SettingError,
    SuiteVersion,
    apply_options,
    migrate_config,
    option_keys,
    problem_text,
    resolve_settings,
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
from toolplay.runs._plan import Intent, RunPlan, catalog_for, resolve_run
from toolplay.runs._preflight import RunError
from toolplay.runs._resume import default_out, stored_settings
from toolplay.runs._review import (
    REVIEWS_DIR,
    Agreement,
    ReviewSummary,
    StoredReview,
    judge_slug,
    load_reviews,
    review_run,
)
from toolplay.runs._runner import (
    RunStats,
    execute_run,
    load_summary,
    open_run,
    rescore_run,
    role_settings,
    run_catalog,
    stored_config,
    trajectory_records,
)
from toolplay.runs._schemas import SCHEMAS, json_schema
from toolplay.runs._select import SelectionError, carried_augmentations, select_scenarios
from toolplay.runs._suite_version import (
    VersionRequest,
    pin_suite_version,
    retarget_version,
    run_version,
    versioned_scenarios,
)
from toolplay.runs._summary import (
    SUMMARY_VERSION,
    ErrorEntry,
    MissingEntry,
    RunHeader,
    RunSummary,
    build_summary,
)
from toolplay.runs._trial import TrialOutcome, scenario_info, scorer_failure
from toolplay.runs._trials import TrialStatistics, trial_statistics
from toolplay.runs._uncertainty import RunUncertainty, run_uncertainty
from toolplay.runs._user_errors import (
    KindCount,
    UserErrorSummary,
    WithoutUserErrors,
    user_error_summary,
)
from toolplay.runs._writer import StoreWriter

__all__ = [
    "CEILING",
    "FLOOR",
    "BASELINES_FILE",
    "Baselines",
    "Agreement",
    "REVIEWS_DIR",
    "ReviewSummary",
    "StoredReview",
    "judge_slug",
    "load_reviews",
    "review_run",
    "Executor",
    "Intent",
    "RunPlan",
    "StoreWriter",
    "KindCount",
    "UserErrorSummary",
    "WithoutUserErrors",
    "user_error_summary",
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
    "SuiteVersion",
    "VersionRequest",
    "SelectionError",
    "SettingError",
    "SqliteResponseCache",
    "TrialStatistics",
    "apply_options",
    "build_summary",
    "carried_augmentations",
    "catalog_for",
    "default_out",
    "execute_run",
    "load_summary",
    "migrate_config",
    "open_run",
    "option_keys",
    "problem_text",
    "rescore_run",
    "resolve_run",
    "resolve_settings",
    "pin_suite_version",
    "rescore_run",
    "retarget_version",
    "run_version",
    "role_settings",
    "run_catalog",
    "run_identity",
    "run_uncertainty",
    "scenario_info",
    "scorer_failure",
    "select_scenarios",
    "stored_config",
    "stored_settings",
    "trajectory_records",
    "trial_statistics",
    "versioned_scenarios",
]
