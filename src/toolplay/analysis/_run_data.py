"""Read a run directory into typed records for the reports.

A report only reads: `summary.json` (`RunSummary`), `config.json` (`RunConfig`), and the
SQLite store (`run.sqlite`, the source of truth) or, when a directory was copied without it,
`trajectories/*.jsonl` (`TrajectoryLine`s). Nothing is played or scored again, and the suite
is never loaded: what a report needs about a scenario (description, categories, split,
augmentation, domain) is stored with its trajectory (`Trajectory.scenario`), or for runs made
before trajectories carried it, in the store's `scenario_info` meta that `toolplay score`
writes. A run that has neither shows no categories and says how to record them. Judge reviews
stored beside the run (`reviews/`, `toolplay review`) are read too.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from toolplay.catalog import CatalogError, build_catalog
from toolplay.errors import InputError
from toolplay.messages import ScenarioInfo, Trajectory, turn_count
from toolplay.runs import (
    TRAJECTORY_LINE,
    ChangeLine,
    HeaderLine,
    MessageLine,
    RunConfig,
    RunSummary,
    ScoreLine,
    StoredReview,
    load_reviews,
)
from toolplay.scoring import ScenarioScore, Scorer
from toolplay.store import (
    CONFIG_FILE,
    SCENARIO_INFO,
    SUITE_IDS,
    SUMMARY_FILE,
    TRAJECTORY_DIR,
    RunStore,
    StoredResult,
    StoreError,
)
from toolplay.users import UserCheck, builtin_user_checks

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)

__all__ = ["ReportError", "RunData", "RunEntry", "load_run", "run_scorers", "run_user_checks"]


class ReportError(InputError):
    """A run directory (or a file given to a report) cannot be read; names file and reason."""


@dataclass(frozen=True)
class RunEntry:
    """One scenario trial of a run: its trajectory, its score and what is known of its
    scenario.
    """

    status: Literal["done", "error"]
    trajectory: Trajectory
    score: ScenarioScore | None
    error: str | None
    info: ScenarioInfo

    @property
    def id(self) -> str:
        """The scenario id."""
        return self.trajectory.scenario_id

    @property
    def trial(self) -> int:
        """The trial number (0-based)."""
        return self.trajectory.trial

    @property
    def value(self) -> float | None:
        """The score (None: not scored, e.g. an infrastructure error)."""
        return None if self.score is None else self.score.score

    @property
    def evaluation(self) -> str:
        """The scoring method (the score's, else the scenario's)."""
        return self.score.evaluation if self.score is not None else self.info.evaluation

    @property
    def turn_count(self) -> int:
        """The conversation's length by the one definition (`messages.turn_count`)."""
        return turn_count(self.trajectory.messages)


@dataclass
class RunData:
    """Everything a report shows about one run."""

    path: Path
    summary: RunSummary | None
    config: RunConfig | None
    entries: list[RunEntry]
    notes: list[str] = field(default_factory=list)
    suite_ids: frozenset[str] | None = None
    """Ids of every scenario of the run's suite (None when the store did not record them)."""
    reviews: list[StoredReview] = field(default_factory=list)
    """Judge models' reviews of the simulated user stored beside the run (`toolplay review`)."""

    @property
    def label(self) -> str:
        """A short name for the run: its directory name."""
        return self.path.name or str(self.path)

    @property
    def trials(self) -> int:
        """Trials per scenario (from the summary, else the configuration, else 1)."""
        if self.summary is not None:
            return self.summary.trials.k
        return self.config.trials if self.config is not None else 1

    def describe(self, key: Literal["suite", "mode", "assistant", "user"]) -> str:
        """A provenance field from the summary, else the configuration ('?' when neither)."""
        if self.summary is not None:
            return str(getattr(self.summary, key))
        value = getattr(self.config, key, None) if self.config is not None else None
        return "?" if value is None else str(value)

    def scenario_scores(self) -> dict[str, float]:
        """Per-scenario score, averaged over the trials that were scored."""
        sums: dict[str, list[float]] = {}
        for entry in self.entries:
            if entry.value is not None:
                sums.setdefault(entry.id, []).append(entry.value)
        return {sid: sum(v) / len(v) for sid, v in sums.items()}


def _read_model(path: Path, model: type[M], notes: list[str], what: str) -> M | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{path}: not readable ({exc})") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ReportError(f"{path}: not readable JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ReportError(f"{path}: expected a JSON object at the top level")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        notes.append(f"{path.name} is not a {what} of this toolplay ({where}: {first['msg']})")
        logger.warning("report: %s: %s", path, exc)
        return None


def _rows_from_store(run_dir: Path) -> tuple[list[StoredResult], Any, Any] | None:
    """The stored rows, the suite's ids and the recorded scenario info (None: no store)."""
    if not (run_dir / RunStore.FILENAME).exists():
        return None
    try:
        store = RunStore.in_dir(run_dir)
    except StoreError as exc:
        raise ReportError(str(exc)) from exc
    try:
        return store.results(), store.get_meta(SUITE_IDS), store.get_meta(SCENARIO_INFO)
    except StoreError as exc:
        raise ReportError(str(exc)) from exc
    finally:
        store.close()


def _row_from_lines(path: Path) -> StoredResult:
    """One trajectory file read back as the row it was written from."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{path}: not readable as UTF-8 JSON lines ({exc})") from exc
    header: HeaderLine | None = None
    messages: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    score: dict[str, Any] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = TRAJECTORY_LINE.validate_json(line)
        except ValidationError as exc:
            raise ReportError(f"{path}: line {number}: not a trajectory record ({exc})") from exc
        data = record.model_dump(mode="json", exclude={"type"})
        if isinstance(record, HeaderLine):
            header = record
        elif isinstance(record, MessageLine):
            messages.append(data)
        elif isinstance(record, ChangeLine):
            changes.append(data)
        elif isinstance(record, ScoreLine):
            score = data
    if header is None:
        raise ReportError(f"{path}: no header line")
    trajectory = header.model_dump(mode="json", exclude={"type", "roles"})
    trajectory.update(messages=messages, changes=changes)
    failed = header.termination == "infrastructure_error"
    return StoredResult(
        scenario_id=header.scenario_id,
        trial=header.trial,
        status="error" if failed else "done",
        trajectory=trajectory,
        score=score,
        error=header.error,
    )


def _entry(row: StoredResult, recorded: dict[str, ScenarioInfo], source: str) -> RunEntry:
    try:
        trajectory = Trajectory.model_validate(row.trajectory)
        score = None if row.score is None else ScenarioScore.model_validate(row.score)
    except ValidationError as exc:
        raise ReportError(
            f"{source}: {row.scenario_id} trial {row.trial}: not a stored result ({exc})"
        ) from exc
    info = trajectory.scenario or recorded.get(row.scenario_id) or ScenarioInfo()
    return RunEntry(
        status="error" if row.status == "error" else "done",
        trajectory=trajectory,
        score=score,
        error=row.error or trajectory.error,
        info=info,
    )


def _scenario_info(value: Any) -> dict[str, ScenarioInfo]:
    if not isinstance(value, dict):
        return {}
    try:
        return {str(k): ScenarioInfo.model_validate(v) for k, v in value.items()}
    except ValidationError:
        return {}


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
    notes: list[str] = []
    summary = _read_model(run_dir / SUMMARY_FILE, RunSummary, notes, "run summary")
    config = _read_model(run_dir / CONFIG_FILE, RunConfig, notes, "run configuration")
    stored = _rows_from_store(run_dir)
    if stored is not None:
        rows, suite_ids, info = stored
        source = str(run_dir / RunStore.FILENAME)
    else:
        files = sorted((run_dir / TRAJECTORY_DIR).glob("*.jsonl"))
        rows, suite_ids, info = [_row_from_lines(p) for p in files], None, None
        source = str(run_dir / TRAJECTORY_DIR)
        if not rows and summary is None:
            raise ReportError(
                f"{run_dir}: no run here (no {RunStore.FILENAME}, {SUMMARY_FILE} "
                f"or {TRAJECTORY_DIR}/*.jsonl)"
            )
    if summary is None and not any(n.startswith(SUMMARY_FILE) for n in notes):
        notes.append(f"{SUMMARY_FILE} is missing: run `toolplay score` to rebuild it")
    recorded = _scenario_info(info)
    entries = [_entry(r, recorded, source) for r in rows]
    if any(e.trajectory.scenario is None and e.id not in recorded for e in entries):
        notes.append(
            "scenario categories and descriptions were not recorded with this run (it predates "
            f"them): `toolplay score {run_dir}` records them"
        )
    entries.sort(key=lambda e: (e.id, e.trial))
    known = frozenset(str(i) for i in suite_ids) if isinstance(suite_ids, list) else None
    return RunData(run_dir, summary, config, entries, notes, known, load_reviews(run_dir))


def run_scorers(runs: Sequence[RunData], plugins: Sequence[str] = ()) -> Mapping[str, Scorer]:
    """The scorers of a catalog with the runs' plugins and `plugins` (besides the built-ins).

    Raises:
        ReportError: A plugin does not load.
    """
    wanted = [p for run in runs for p in (run.config.plugins if run.config else [])]
    try:
        return build_catalog(list(dict.fromkeys([*wanted, *plugins]))).scorers
    except CatalogError as exc:
        raise ReportError(f"--plugin: {exc}") from exc


def run_user_checks(run: RunData) -> list[UserCheck]:
    """The user-error checks of the catalog the run was made with (its plugins' too; the
    built-in checks when a plugin no longer loads), for the report's glossary.
    """
    plugins = run.config.plugins if run.config is not None else []
    try:
        return list(build_catalog(plugins).user_checks.values())
    except CatalogError:
        return builtin_user_checks()
