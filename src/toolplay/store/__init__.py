"""Run storage: the SQLite store (source of truth) and the run directory's files."""

from toolplay.store._files import (
    CONFIG_FILE,
    SUMMARY_FILE,
    TRAJECTORY_DIR,
    remove_temporary_files,
    temporary_files,
    trajectory_path,
    trajectory_text,
    write_atomic,
    write_json,
    write_trajectory_lines,
)
from toolplay.store._sqlite import (
    SCENARIO_INFO,
    SCHEMA_VERSION,
    SUITE_IDS,
    RunStore,
    StoredResult,
    StoreError,
    row_digest,
)

__all__ = [
    "CONFIG_FILE",
    "SCENARIO_INFO",
    "SCHEMA_VERSION",
    "SUITE_IDS",
    "SUMMARY_FILE",
    "TRAJECTORY_DIR",
    "RunStore",
    "StoreError",
    "StoredResult",
    "remove_temporary_files",
    "row_digest",
    "temporary_files",
    "trajectory_path",
    "trajectory_text",
    "write_atomic",
    "write_json",
    "write_trajectory_lines",
]
