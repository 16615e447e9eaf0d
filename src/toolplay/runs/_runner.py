"""Execute a run: play every scenario trial, score it, store it, summarise the store.

Scenario trials run concurrently (`concurrency`), each with its own world, inside
`trial_scope(trial)` so shared model roles know which trial they serve (seed, cache key). Each
finished trial is committed to the store before it is reported, by one writer thread (file
first, then the transaction), so an interrupted run resumes from the store with nothing lost
and nothing played twice; trials that ended in an infrastructure error, or that the harness
itself failed to play or score, are stored as errors with their cause and played again on
resume. Reopening a run (`--resume`, `toolplay score`) takes the store's exclusive lock, drops
rows that fail their checksum (resume plays them again) and brings the files back in step with
the store (`_restore`). `options["cache"]` names a response cache file handed to the roles.
"""

from __future__ import annotations

import asyncio
import json
import logging
import traceback
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from toolplay import __version__
from toolplay.messages import Trajectory
from toolplay.roles import (
    CACHE_OPTION,
    Assistant,
    RoleOptionError,
    RoleSpecError,
    User,
    build_assistant,
    build_user,
    trial_scope,
)
from toolplay.runs._cache import SqliteResponseCache
from toolplay.runs._config import RunConfig
from toolplay.runs._modes import MODES
from toolplay.runs._preflight import (
    RunError,
    check_identity,
    check_out,
    check_paths,
    run_identity,
)
from toolplay.runs._restore import restore_files, stored_records
from toolplay.runs._select import select_scenarios
from toolplay.runs._summary import build_summary
from toolplay.scenarios import Scenario, Suite, load_suite
from toolplay.scoring import (
    ScenarioScore,
    ScoringContext,
    score_trajectory,
    scoring_context_for,
)
from toolplay.store import (
    CONFIG_FILE,
    SUMMARY_FILE,
    RunStore,
    trajectory_path,
    write_json,
    write_trajectory_lines,
)

logger = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
"""Called with (finished, total) after every scenario trial."""
R = TypeVar("R", Assistant, User)
SCORING_OPTIONS = ("slot_matching",)
"""Run options that change how trajectories are scored (not how they are played)."""


def role_settings(assistant: Assistant, user: User) -> dict[str, Any]:
    """What produced the results: each role's name and public settings (never a key)."""
    return {
        "assistant": {"name": assistant.name, **dict(getattr(assistant, "settings", {}))},
        "user": {"name": user.name, **dict(getattr(user, "settings", {}))},
    }


async def _close_roles(*roles: object) -> None:
    for role in roles:
        close = getattr(role, "aclose", None)
        if close is not None:
            await close()


def fit_to_recording(
    config: RunConfig, assistant: Assistant, scenarios: Sequence[Scenario]
) -> RunConfig:
    """`config` with the trials a replayed recording holds (`prepare_run`), checked up front.

    An assistant that replays recorded dialogues (an AutoDE results file) decides how many
    trials there are and refuses a recording it cannot score (a dialogue without a record)
    before anything is written.
    """
    prepare = getattr(assistant, "prepare_run", None)
    if not callable(prepare):
        return config
    try:
        trials = int(prepare(scenarios, config.trials))
    except ValueError as exc:
        raise RunError(f"--assistant: {exc}") from exc
    return config if trials == config.trials else config.model_copy(update={"trials": trials})


def open_run(config: RunConfig) -> RunStore:
    """Create the run directory and store, or reopen it for `--resume`."""
    out = config.out
    check_paths(config)
    out.mkdir(parents=True, exist_ok=True)
    store = RunStore.in_dir(out, create=True, exclusive=True)
    try:
        check_identity(store.get_meta("config"), config)
        store.set_meta("config", run_identity(config))
        damaged = store.discard_damaged()
        if damaged:
            logger.warning(
                "%s: %d stored result(s) failed their checksum and will be played again: %s",
                store.path, len(damaged), ", ".join(f"{k} t{t}" for k, t in damaged[:5]),
            )
    except BaseException:
        store.close()
        raise
    return store


def _build_role(
    flag: str, build: Callable[[str, dict[str, Any]], R], spec: str, options: dict[str, Any]
) -> R:
    """`build(spec, options)`; an unusable spec is refused naming the option it came from."""
    try:
        return build(spec, options)
    except (RoleSpecError, RoleOptionError) as exc:
        raise RunError(f"{flag}: {exc}") from exc


def trajectory_records(
    trajectory: Trajectory, score: ScenarioScore | None, roles: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The JSON-lines form of a trajectory: header, messages, world changes, score.

    `roles` (see `role_settings`) goes into the header, so every result says which assistant
    and which user produced it, with what settings.
    """
    return stored_records(
        trajectory.model_dump(mode="json"),
        None if score is None else score.model_dump(mode="json"),
        roles,
    )


def run_header(
    config: RunConfig,
    suite: Suite,
    mode: str,
    context: ScoringContext,
    roles: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Provenance fields of the summary (no secrets, no wall-clock times)."""
    header = {
        "suite": config.suite, "suite_name": suite.name, "mode": mode,
        "assistant": config.assistant, "user": config.user, "trials": config.trials,
        "toolplay_version": __version__, **context.info,
    }
    if roles:
        header["assistant_settings"] = roles["assistant"]
        header["user_settings"] = roles["user"]
    return header


def _harness_failure(
    scenario: Scenario, trial: int, mode: str, assistant: Assistant, user: User, what: str
) -> Trajectory:
    """The record of a trial the harness itself could not play (stored as an error)."""
    return Trajectory(
        scenario_id=scenario.id,
        trial=trial,
        termination="infrastructure_error",
        error=f"{what}\n{traceback.format_exc()}",
        assistant=assistant.name,
        user=user.name,
        mode="static" if mode == "static" else "dynamic",
    )


async def execute_run(
    config: RunConfig,
    *,
    progress: Progress | None = None,
    context: ScoringContext | None = None,
) -> dict[str, Any]:
    """Run `config` to completion and return the summary (also written to summary.json)."""
    check_out(config)
    suite = load_suite(config.suite)
    mode = config.mode or suite.default_mode
    if mode not in MODES:
        raise RunError(f"mode {mode!r} is not available; known: {', '.join(MODES)}")
    # --augment is folded into the scenarios (selected or applied), not passed to the modes
    scenarios = select_scenarios(suite, config.limit, config.augment)
    options: dict[str, Any] = {
        **config.options, "system_prompt": config.system_prompt,
        "concurrency": config.concurrency,
    }
    cache_path = config.options.get("cache")
    cache = SqliteResponseCache(Path(str(cache_path))) if cache_path else None
    try:
        options[CACHE_OPTION] = cache
        assistant = _build_role("--assistant", build_assistant, config.assistant, options)
        user = _build_role("--user", build_user, config.user, options)
        config = fit_to_recording(config, assistant, scenarios)
        context = context or default_context(suite, config.options)
        store = open_run(config)
    except BaseException:
        if cache is not None:
            cache.close()
        raise
    roles = role_settings(assistant, user)
    try:
        store.set_meta("roles", roles)
        write_json(config.out / CONFIG_FILE, config.model_dump(mode="json"))
        restore_files(store, config.out)
        done = store.done()
        todo = [(s, t) for s in scenarios for t in range(config.trials) if (s.id, t) not in done]
        total, finished = len(scenarios) * config.trials, len(scenarios) * config.trials - len(todo)
        gate = asyncio.Semaphore(config.concurrency)
        writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolplay-store")

        async def one(scenario: Scenario, trial: int) -> None:
            nonlocal finished
            async with gate:
                with trial_scope(trial):
                    try:
                        trajectory = await MODES[mode](scenario, assistant, user, trial, options)
                    except Exception as exc:  # a harness bug: recorded, retried on resume
                        logger.exception("%s trial %d: playing failed", scenario.id, trial)
                        trajectory = _harness_failure(
                            scenario, trial, mode, assistant, user, f"harness error: {exc!r}"
                        )
            failed = trajectory.termination == "infrastructure_error"
            error = trajectory.error if failed else None
            score: ScenarioScore | None = None
            if not failed:
                try:
                    score = score_trajectory(scenario, trajectory, context)
                except Exception as exc:  # a scorer bug must not sink the other scenarios
                    logger.exception("%s trial %d: scoring failed", scenario.id, trial)
                    failed, error = True, f"scoring failed: {exc!r}\n{traceback.format_exc()}"

            def persist() -> None:
                # The file first, the store commit last: a kill in between leaves an uncommitted
                # trial, which resume plays again (rewriting the file), never a result without
                # its file. One writer thread does all of it, so fsyncs never stall the loop.
                write_trajectory_lines(
                    trajectory_path(config.out, scenario.id, trial),
                    trajectory_records(trajectory, score, roles),
                )
                store.save_result(
                    scenario.id, trial, status="error" if failed else "done",
                    trajectory=trajectory.model_dump(mode="json"),
                    score=None if score is None else score.model_dump(mode="json"),
                    error=error,
                )

            await asyncio.get_running_loop().run_in_executor(writer, persist)
            finished += 1
            if progress:
                progress(finished, total)

        if progress:
            progress(finished, total)
        try:
            await asyncio.gather(*(one(s, t) for s, t in todo))
        finally:
            writer.shutdown(wait=True)
        if cache is not None:
            logger.info(
                "response cache %s: %d hits, %d misses", cache.path, cache.hits, cache.misses
            )
        header = run_header(config, suite, mode, context, roles)
        summary = build_summary(scenarios, store.results(), header)
        write_json(config.out / SUMMARY_FILE, summary)
        return summary
    finally:
        store.close()
        await _close_roles(assistant, user)
        if cache is not None:
            cache.close()


def default_context(suite: Suite, options: Mapping[str, Any] | None = None) -> ScoringContext:
    """The scoring resources a suite's methods need (e.g. ToolTalk's text similarity model).

    Resources load lazily; what they are (the embedding model's name) is in `context.info`,
    which the summary records. Scoring options among the run's `options` (`slot_matching`)
    go into `context.options` and, being part of what a score means, into `context.info`.
    """
    context = scoring_context_for({scenario.evaluation for scenario in suite.scenarios})
    for name in SCORING_OPTIONS:
        value = (options or {}).get(name)
        if value is not None:
            context.options[name] = value
            context.info[name] = value
    return context


def rescore_run(run_dir: Path, *, context: ScoringContext | None = None) -> dict[str, Any]:
    """Recompute every score of a stored run from its trajectories; no model is called."""
    store = RunStore.in_dir(run_dir, exclusive=True)
    try:
        stored = store.get_meta("config")
        if stored is None:
            raise RunError(f"{run_dir}: the store holds no run configuration")
        config = RunConfig.model_validate({**stored, "out": str(run_dir)})
        suite = load_suite(config.suite)
        mode = config.mode or suite.default_mode
        context = context or default_context(suite, config.options)
        scenarios = select_scenarios(suite, config.limit, config.augment)
        by_id = {s.id: s for s in scenarios}
        roles = store.get_meta("roles")
        for result in store.results():
            if result.status != "done" or result.scenario_id not in by_id:
                continue
            trajectory = Trajectory.model_validate(result.trajectory)
            score = score_trajectory(by_id[result.scenario_id], trajectory, context)
            store.update_score(result.scenario_id, result.trial, score.model_dump(mode="json"))
        restore_files(store, run_dir)  # the files follow the new scores (and any damage heals)
        header = run_header(config, suite, mode, context, roles)
        summary = build_summary(scenarios, store.results(), header)
        write_json(run_dir / SUMMARY_FILE, summary)
        return summary
    finally:
        store.close()


def load_summary(run_dir: Path) -> dict[str, Any]:
    """Read a run's summary.json."""
    return dict(json.loads((run_dir / SUMMARY_FILE).read_text(encoding="utf-8")))
