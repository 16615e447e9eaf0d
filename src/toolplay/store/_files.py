"""The human-readable side of a run directory: config, trajectories and summary as files.

Every file is written to a temporary name and renamed into place, so a reader never sees a
half-written file. The SQLite store stays the source of truth; these files can always be
regenerated from it. A process killed mid-write leaves its temporary file behind
(`.NAME.<random>.tmp`); `remove_temporary_files` clears a run's own leftovers when the run is
opened again.
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

TRAJECTORY_DIR = "trajectories"
SUMMARY_FILE = "summary.json"
CONFIG_FILE = "config.json"


def write_atomic(path: Path, text: str, *, sync: bool = True) -> None:
    """Write `text` to `path` via a temporary file and rename.

    `sync=False` skips the fsync: for a file the store can write again (a trajectory file,
    rewritten from the store when a run is reopened), a power cut may lose it, a killed
    process never does (the written bytes are the kernel's already).
    """
    if path.is_dir():  # refused before anything is created, naming the path asked for
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a file", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes 0600; run files are meant to be shared and read
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: Path, data: Any) -> None:
    """Write pretty, key-sorted JSON atomically."""
    write_atomic(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def trajectory_path(run_dir: Path, scenario_id: str, trial: int) -> Path:
    """Where one scenario trial's JSON-lines trajectory lives."""
    safe = scenario_id.replace("/", "_").replace(":", "_")
    return run_dir / TRAJECTORY_DIR / f"{safe}.t{trial}.jsonl"


def trajectory_text(records: Iterable[dict[str, Any]]) -> str:
    """The JSON-lines text of a trajectory file: one key-sorted object per line."""
    lines = (json.dumps(r, ensure_ascii=False, sort_keys=True, default=str) for r in records)
    return "\n".join(lines) + "\n"


def write_trajectory_lines(
    path: Path, records: Iterable[dict[str, Any]], *, sync: bool = True
) -> None:
    """Write one JSON object per line, atomically (`sync`: see `write_atomic`)."""
    write_atomic(path, trajectory_text(records), sync=sync)


def temporary_files(run_dir: Path) -> list[Path]:
    """Leftovers of interrupted atomic writes of a run's own files (summary, config, lines)."""
    found = [p for name in (SUMMARY_FILE, CONFIG_FILE) for p in run_dir.glob(f".{name}.*.tmp")]
    found += (run_dir / TRAJECTORY_DIR).glob(".*.jsonl.*.tmp")
    return sorted(found)


def remove_temporary_files(run_dir: Path) -> int:
    """Delete `temporary_files(run_dir)`; only safe while holding the run's store lock."""
    leftovers = temporary_files(run_dir)
    for path in leftovers:
        path.unlink(missing_ok=True)
    return len(leftovers)
