"""Read a run directory into plain, JSON-able data for the reports.

A report only reads: `summary.json`, the SQLite store (`run.sqlite`, the source of truth) or,
when a directory was copied without it, `trajectories/*.jsonl`. Nothing is played or scored
again. Each trajectory carries its scenario's description and categories (`scenario`); for
runs stored before it did, they are looked up in the suite named by the stored configuration,
best effort: when the suite cannot be loaded any more, the report says so and goes on.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolplay.catalog import CatalogError, build_catalog
from toolplay.messages import Message, turn_count
from toolplay.runs import select_scenarios
from toolplay.scenarios import Scenario, ScenarioError
from toolplay.store import (
    CONFIG_FILE,
    SUITE_IDS,
    SUMMARY_FILE,
    TRAJECTORY_DIR,
    RunStore,
    StoreError,
)

logger = logging.getLogger(__name__)

__all__ = ["ReportError", "RunData", "load_run"]


class ReportError(Exception):
    """A run directory (or a file given to a report) cannot be read; names file and reason."""


@dataclass
class RunData:
    """Everything a report shows about one run."""

    path: Path
    summary: dict[str, Any]
    config: dict[str, Any]
    entries: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    suite_ids: frozenset[str] | None = None
    """Ids of every scenario of the run's suite (None when the suite did not load)."""

    @property
    def label(self) -> str:
        """A short name for the run: its directory name."""
        return self.path.name or str(self.path)

    def scenario_scores(self) -> dict[str, float]:
        """Per-scenario score, averaged over the trials that were scored."""
        sums: dict[str, list[float]] = {}
        for entry in self.entries:
            if entry["score"] is not None:
                sums.setdefault(entry["id"], []).append(float(entry["score"]))
        return {sid: sum(v) / len(v) for sid, v in sums.items()}


def _read_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise ReportError(f"{path}: not readable JSON ({exc})") from exc
    if not isinstance(value, dict):
        raise ReportError(f"{path}: expected a JSON object at the top level")
    return value


def _rows_from_store(run_dir: Path) -> tuple[list[dict[str, Any]], list[str] | None] | None:
    """The stored rows and the ids of the run's whole suite (None for runs that predate it)."""
    if not (run_dir / RunStore.FILENAME).exists():
        return None
    try:
        store = RunStore.in_dir(run_dir)
    except StoreError as exc:
        raise ReportError(str(exc)) from exc
    try:
        rows = [
            {
                "status": r.status,
                "trajectory": r.trajectory,
                "score": r.score,
                "error": r.error,
            }
            for r in store.results()
        ]
        suite_ids = store.get_meta(SUITE_IDS)
        return rows, suite_ids if isinstance(suite_ids, list) else None
    finally:
        store.close()


def _rows_from_lines(run_dir: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in sorted((run_dir / TRAJECTORY_DIR).glob("*.jsonl")):
        trajectory: dict[str, Any] = {"messages": [], "changes": []}
        score: dict[str, Any] | None = None
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ReportError(f"{path}: not readable as UTF-8 JSON lines ({exc})") from exc
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                kind = record.pop("type")
            except (ValueError, KeyError, AttributeError, TypeError) as exc:
                raise ReportError(
                    f"{path}: line {number}: not a trajectory record ({exc})"
                ) from exc
            if kind == "header":
                trajectory.update(record)
            elif kind == "message":
                trajectory["messages"].append(record)
            elif kind == "change":
                trajectory["changes"].append(record)
            elif kind == "score":
                score = record
        failed = trajectory.get("termination") == "infrastructure_error"
        rows.append(
            {
                "status": "error" if failed else "done",
                "trajectory": trajectory,
                "score": score,
                "error": trajectory.get("error"),
            }
        )
    return rows


def _scenarios(config: dict[str, Any], notes: list[str]) -> dict[str, Scenario]:
    spec = config.get("suite")
    if not isinstance(spec, str):
        return {}
    augment = config.get("augment") or []
    try:  # --augment selects or creates the run's variants: look them up the same way
        catalog = build_catalog(config.get("plugins") or [])
        return {s.id: s for s in select_scenarios(catalog.load_suite(spec), None, augment)}
    except (ScenarioError, CatalogError, OSError, ValueError) as exc:
        notes.append(f"scenario metadata unavailable (suite {spec!r} did not load: {exc})")
        logger.warning("report: suite %r did not load: %s", spec, exc)
        return {}


def _entry(row: dict[str, Any], scenario: Scenario | None) -> dict[str, Any]:
    trajectory = row["trajectory"]
    score = row["score"] or {}
    details = score.get("evidence") or score.get("details") or {}
    messages = list(trajectory.get("messages") or [])
    info = trajectory.get("scenario") or {}
    if scenario is not None and not info:
        info = {
            "categories": list(scenario.categories),
            "description": scenario.description,
            "split": scenario.split,
            "augmentation": scenario.augmentation,
            "evaluation": scenario.evaluation,
        }
    return {
        "id": trajectory.get("scenario_id") or score.get("scenario_id") or "?",
        "trial": int(trajectory.get("trial", score.get("trial", 0)) or 0),
        "status": row["status"],
        "score": score.get("score"),
        "evaluation": score.get("evaluation") or info.get("evaluation"),
        "termination": trajectory.get("termination"),
        "error": row["error"] or trajectory.get("error"),
        "usage": trajectory.get("usage") or {},
        "turn_count": turn_count([Message.model_validate(m) for m in messages]),
        "categories": list(info.get("categories") or []),
        "description": info.get("description") or "",
        "split": info.get("split"),
        "augmentation": info.get("augmentation"),
        "mode": trajectory.get("mode"),
        "tool_names": trajectory.get("tool_names") or {},
        "messages": messages,
        "changes": list(trajectory.get("changes") or []),
        "details": details,
    }


def load_run(run_dir: Path) -> RunData:
    """Read one run directory for reporting.

    Args:
        run_dir: A directory written by `toolplay run`.

    Returns:
        The summary, the configuration and one entry per scenario trial, ordered by
        scenario id and trial.

    Raises:
        ReportError: The directory holds no run, or one of its files is unreadable.
    """
    if not run_dir.is_dir():
        raise ReportError(f"{run_dir}: not a directory")
    summary = _read_json(run_dir / SUMMARY_FILE)
    config = _read_json(run_dir / CONFIG_FILE)
    stored = _rows_from_store(run_dir)
    rows, suite_ids = stored if stored is not None else (None, None)
    if rows is None:
        rows = _rows_from_lines(run_dir)
        if not rows and not summary:
            raise ReportError(
                f"{run_dir}: no run here (no {RunStore.FILENAME}, {SUMMARY_FILE} "
                f"or {TRAJECTORY_DIR}/*.jsonl)"
            )
    notes: list[str] = []
    if not summary:
        notes.append(f"{SUMMARY_FILE} is missing: run `toolplay score` to rebuild it")
    recorded = suite_ids is not None and all(r["trajectory"].get("scenario") for r in rows)
    scenarios = {} if recorded else _scenarios(config or summary, notes)
    entries = [_entry(r, scenarios.get(r["trajectory"].get("scenario_id", ""))) for r in rows]
    entries.sort(key=lambda e: (e["id"], e["trial"]))
    known = frozenset(suite_ids) if suite_ids is not None else frozenset(scenarios) or None
    return RunData(run_dir, summary, config, entries, notes, known)
