"""Run storage: the SQLite store (source of truth) and the run directory's files."""

from toolplay.store._files import (
    CONFIG_FILE,
    SUMMARY_FILE,
    TRAJECTORY_DIR,
    trajectory_path,
    write_atomic,
    write_json,
    write_trajectory_lines,
)
from toolplay.store._sqlite import SCHEMA_VERSION, RunStore, StoredResult, StoreError

__all__ = [
    "CONFIG_FILE",
    "SCHEMA_VERSION",
    "SUMMARY_FILE",
    "TRAJECTORY_DIR",
    "RunStore",
    "StoreError",
    "StoredResult",
    "trajectory_path",
    "write_atomic",
    "write_json",
    "write_trajectory_lines",
]
