"""Keep a run directory's files in step with its store, after a crash or damage.

The store is the source of truth and the files are views of it. A file can be stale or wrong:
a process killed between writing a trial's file and committing it leaves a file for a trial the
store does not hold (resume plays the trial again and rewrites it); a file can also be cut short
or garbled on disk, and an interrupted atomic write leaves its temporary file behind. So when a
run is opened again (`--resume`, `toolplay score`), every stored result's file is compared with
what the store says and rewritten where it differs, and the temporary leftovers are removed.
The text of a file is a function of the stored row alone, so a regenerated file is
byte-identical to the one the uninterrupted run wrote.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from toolplay.store import (
    RunStore,
    remove_temporary_files,
    trajectory_path,
    trajectory_text,
    write_atomic,
)

logger = logging.getLogger(__name__)

__all__ = ["restore_files", "stored_records"]


def stored_records(
    trajectory: dict[str, Any], score: dict[str, Any] | None, roles: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The JSON-lines records of a trajectory file, from the stored (JSON) trajectory and score.

    Records: a header (the trajectory without messages and changes, plus `roles`), each
    message, each world change, and the score when there is one.
    """
    header = {k: v for k, v in trajectory.items() if k not in ("messages", "changes")}
    if roles:
        header["roles"] = roles
    records: list[dict[str, Any]] = [{"type": "header", **header}]
    records += [{"type": "message", **m} for m in trajectory.get("messages") or []]
    records += [{"type": "change", **c} for c in trajectory.get("changes") or []]
    if score is not None:
        records.append({"type": "score", **score})
    return records


def restore_files(store: RunStore, run_dir: Path) -> int:
    """Rewrite every trajectory file that differs from the store; remove temporary leftovers.

    Call it only while holding the store's exclusive lock.

    Returns:
        How many trajectory files were rewritten.
    """
    removed = remove_temporary_files(run_dir)
    if removed:
        logger.warning("%s: removed %d unfinished temporary file(s)", run_dir, removed)
    roles = store.get_meta("roles")
    rewritten = 0
    for result in store.results():
        path = trajectory_path(run_dir, result.scenario_id, result.trial)
        text = trajectory_text(stored_records(result.trajectory, result.score, roles))
        try:
            current = path.read_bytes()
        except FileNotFoundError:
            current = None
        if current != text.encode("utf-8"):
            write_atomic(path, text)
            rewritten += 1
    if rewritten:
        logger.info("%s: rewrote %d trajectory file(s) from the store", run_dir, rewritten)
    return rewritten
