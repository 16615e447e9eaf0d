"""Read an Inspect log of a toolplay task back into a toolplay run folder.

The log holds everything a run folder needs: each sample's trajectory (`store`), toolplay's
score with its evidence (score `metadata`), the scenario's categories and method (sample
`metadata`) and how the scenarios were chosen (task `metadata`). The folder written is a run
folder like `toolplay run` writes (store, trajectory files, `config.json`, `summary.json`), so
`toolplay report` and `toolplay compare` work on it; nothing is played or scored again, and
the summary is built by toolplay's own `build_summary` from the stored results.

An errored sample (an infrastructure error, or any other failure Inspect recorded) is stored as
an error, with its trajectory when the log has one: never scored, as in a toolplay run. Epoch e
is trial e - 1. The assistant is recorded as `inspect:<model>`. `toolplay score` re-scores such a
folder like any run (it reloads the suite); a task run with `category` is recorded without
`limit`, as a run has no category filter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from pydantic import ValidationError

from toolplay.catalog import build_catalog
from toolplay.errors import InputError
from toolplay.integrations.inspect._plan import Selection
from toolplay.integrations.inspect._records import (
    EMBEDDING_KEY,
    SCENARIO_KEY,
    SCORE_KEY,
    TASK_KEY,
    TRAJECTORY_KEY,
    stand_in,
)
from toolplay.messages import ScenarioInfo, Trajectory
from toolplay.runs import (
    RunConfig,
    RunHeader,
    RunSummary,
    build_summary,
    run_identity,
    trajectory_records,
)
from toolplay.scenarios import Scenario
from toolplay.scoring import ScenarioScore
from toolplay.store import (
    CONFIG_FILE,
    SUMMARY_FILE,
    RunStore,
    trajectory_path,
    write_json,
    write_trajectory_lines,
)


class InspectImportError(InputError):
    """The log cannot be imported: not a toolplay task's, no samples, or the folder is taken."""


def import_inspect_log(log: Path, out: Path) -> RunSummary:
    """Write the run folder `out` from the Inspect log `log` and return its summary.

    Raises:
        InspectImportError: naming the log or the folder and the reason.
    """
    try:
        eval_log = read_eval_log(str(log))
    except Exception as exc:
        raise InspectImportError(f"{log}: not a readable Inspect log ({exc})") from exc
    selection = _selection(log, eval_log)
    samples = eval_log.samples or []
    if not samples:
        raise InspectImportError(f"{log}: the log holds no samples (written with samples off?)")
    if out.exists() and any(out.iterdir()):
        raise InspectImportError(f"{out}: exists and is not empty; choose a new --out folder")
    model = eval_log.eval.model
    trials = max(sample.epoch for sample in samples)
    config = RunConfig(
        suite=selection.suite,
        mode=selection.mode,
        assistant=f"inspect:{model}",
        user=selection.user,
        # RunConfig has no category filter: with one, no limit, so `toolplay score` finds every
        # result again (and counts the suite's other scenarios as missing).
        limit=None if selection.categories else selection.limit,
        out=out,
        trials=trials,
        augment=selection.augment,
        play=selection.play,
        plugins=selection.plugins,
    )
    roles = _roles(log, eval_log, selection)
    scenarios: dict[str, Scenario] = {}
    embedding_model: str | None = None
    out.mkdir(parents=True, exist_ok=True)
    store = RunStore.in_dir(out, create=True, exclusive=True)
    try:
        store.set_meta("config", run_identity(config))
        store.set_meta("roles", roles)
        store.set_meta("inspect_log", {"path": str(log), "eval_id": eval_log.eval.eval_id})
        write_json(out / CONFIG_FILE, config.model_dump(mode="json"))
        for sample in samples:
            info = ScenarioInfo.model_validate((sample.metadata or {}).get(SCENARIO_KEY) or {})
            scenarios.setdefault(str(sample.id), stand_in(str(sample.id), info))
            trajectory, score, error = _result(sample, selection, info)
            embedding_model = embedding_model or _embedding_model(sample)
            write_trajectory_lines(
                trajectory_path(out, trajectory.scenario_id, trajectory.trial),
                trajectory_records(trajectory, score, roles),
            )
            store.save_result(
                trajectory.scenario_id,
                trajectory.trial,
                status="error" if score is None else "done",
                trajectory=trajectory.model_dump(mode="json"),
                score=None if score is None else score.model_dump(mode="json"),
                error=error,
            )
        header = RunHeader(
            suite=selection.suite,
            suite_name=selection.suite_name,
            mode=selection.catalog_mode,
            assistant=config.assistant,
            user=selection.user,
            trials=trials,
            toolplay_version=selection.toolplay_version,
            embedding_model=embedding_model,
            assistant_settings=roles["assistant"],
            user_settings=roles["user"],
        )
        scorers = build_catalog(selection.plugins).scorers
        summary = build_summary(list(scenarios.values()), store.results(), header, scorers)
        write_json(out / SUMMARY_FILE, summary.to_json())
        return summary
    finally:
        store.close()


def _selection(log: Path, eval_log: EvalLog) -> Selection:
    data = (eval_log.eval.metadata or {}).get(TASK_KEY)
    if data is None:
        raise InspectImportError(
            f"{log}: task {eval_log.eval.task!r} is not a toolplay task (no 'toolplay' metadata)"
        )
    try:
        return Selection.model_validate(data)
    except ValidationError as exc:
        raise InspectImportError(f"{log}: the task's toolplay metadata is invalid: {exc}") from exc


def _roles(log: Path, eval_log: EvalLog, selection: Selection) -> dict[str, Any]:
    spec = eval_log.eval
    model_roles = {
        name: (role[0] if isinstance(role, list) else role).model
        for name, role in (spec.model_roles or {}).items()
        if role
    }
    assistant: dict[str, Any] = {
        "name": f"inspect:{spec.model}",
        "provider": "inspect",
        "model": spec.model,
        "inspect_task": spec.task,
        "inspect_log": str(log),
    }
    if spec.model_base_url:
        assistant["base_url"] = spec.model_base_url
    user: dict[str, Any] = {"name": selection.user}
    if "user" in model_roles:
        user = {"name": f"inspect:{model_roles['user']}", "model": model_roles["user"]}
    return {"assistant": assistant, "user": user}


def _score_metadata(sample: EvalSample) -> dict[str, Any] | None:
    for score in (sample.scores or {}).values():
        if score.metadata and SCORE_KEY in score.metadata:
            return score.metadata
    return None


def _embedding_model(sample: EvalSample) -> str | None:
    metadata = _score_metadata(sample)
    found = metadata.get(EMBEDDING_KEY) if metadata else None
    return found if isinstance(found, str) else None


def _result(
    sample: EvalSample, selection: Selection, info: ScenarioInfo
) -> tuple[Trajectory, ScenarioScore | None, str | None]:
    """The sample's trajectory, its toolplay score (None: an error) and the error."""
    trial = sample.epoch - 1
    data = (sample.store or {}).get(TRAJECTORY_KEY)
    metadata = _score_metadata(sample)
    error = sample.error.message if sample.error is not None else None
    if data is not None:
        trajectory = Trajectory.model_validate(data)
    else:
        trajectory = Trajectory(
            scenario_id=str(sample.id),
            trial=trial,
            termination="infrastructure_error",
            error=error or "the sample holds no toolplay trajectory",
            assistant="",
            user=selection.user,
            mode=selection.catalog_mode,
            scenario=info,
        )
    if error is not None or metadata is None or trajectory.termination == "infrastructure_error":
        return trajectory, None, error or trajectory.error or "not scored"
    # A score of None (the scorer cannot judge the scenario) is stored as `toolplay run` does:
    # done, listed with its reason, never averaged.
    return trajectory, ScenarioScore.model_validate(metadata[SCORE_KEY]), None
