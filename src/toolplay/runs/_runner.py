"""Execute a run: play every scenario trial, score it, store it, summarise the store.

A run is resolved once into a `RunPlan` (`runs._plan.resolve_run`: catalog, settings, pinned
suite, mode, presentation, scenarios), the same way for a new run, a resumed one, a re-score,
a Ray worker, an Inspect task and validation. Scenario trials run concurrently
(`concurrency`), each with its own world; the roles learn which trial they serve from their
context (seed, cache key). The plan's player gives each trajectory: the mode playing the
roles, or a recording read (an assistant that is a published results file: it says before the
run how many trials it holds, and a recording that cannot be scored is refused before anything
is written). Each finished trial is committed to the store before it is reported, by the run's
one `StoreWriter` (file first, then the transaction; trials that queue up share one), so an
interrupted run resumes from the store with nothing lost and nothing played twice; trials that
ended in an infrastructure error, that the harness failed to play, or that the scorer failed
on, are stored as errors with their cause and played again on resume. Reopening a run
(`--resume`, `toolplay score`) takes the store's exclusive lock, drops rows that fail their
checksum (resume plays them again) and brings the files back in step with the store
(`_restore`). `config.cache` names a response cache file handed to the roles.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from toolplay import __version__
from toolplay.catalog import Catalog
from toolplay.messages import Trajectory, compact_exchanges
from toolplay.roles import Assistant, User
from toolplay.runs._cache import SqliteResponseCache
from toolplay.runs._config import RunConfig, run_identity
from toolplay.runs._executor import Executor, LocalExecutor, RunJob
from toolplay.runs._plan import Retarget, RunPlan, catalog_for, resolve_run
from toolplay.runs._preflight import RunError, check_identity, check_paths
from toolplay.runs._restore import restore_files, stored_records
from toolplay.runs._resume import stored_settings
from toolplay.runs._suite_version import VersionRequest, retarget_version
from toolplay.runs._summary import SUMMARY_KEYS, RunHeader, RunSummary, build_summary
from toolplay.runs._trial import TrialWork, scenario_info, score_or_failure, scorer_failure
from toolplay.runs._writer import Progress, StoreWriter
from toolplay.scenarios import Scenario, Suite
from toolplay.scoring import ScenarioScore, ScoringContext
from toolplay.stats import UncertaintySettings
from toolplay.store import (
    CONFIG_FILE,
    SCENARIO_INFO,
    SUITE_IDS,
    SUMMARY_FILE,
    RunStore,
    StoredResult,
    write_json,
)

logger = logging.getLogger(__name__)

_UNCERTAINTY = "uncertainty"
"""Store meta key of the interval settings (not part of the run's identity)."""


@dataclass
class RunStats:
    """What a run did beside its results, for the person watching (never stored: a resumed
    or cached run must give the same files): how many model calls the response cache served.
    """

    cache_hits: int = 0
    cache_misses: int = 0


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


def open_run(config: RunConfig, pin: Callable[[str], str] = lambda spec: spec) -> RunStore:
    """Create the run directory and store, or reopen it for `--resume`."""
    out = config.out
    check_paths(config)
    out.mkdir(parents=True, exist_ok=True)
    store = RunStore.in_dir(out, create=True, exclusive=True)
    try:
        check_identity(store.get_meta("config"), config, pin)
        store.set_meta("config", run_identity(config))
        damaged = store.discard_damaged()
        if damaged:
            logger.warning(
                "%s: %d stored result(s) failed their checksum and will be played again: %s",
                store.path,
                len(damaged),
                ", ".join(f"{k} t{t}" for k, t in damaged[:5]),
            )
    except BaseException:
        store.close()
        raise
    return store


def trajectory_records(
    trajectory: Trajectory, score: ScenarioScore | None, roles: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The JSON-lines form of a trajectory: header, messages, world changes, score.

    `roles` (see `role_settings`) goes into the header, so every result says which assistant
    and which user produced it, with what settings.
    """
    return stored_records(
        compact_exchanges(trajectory.model_dump(mode="json")),
        None if score is None else score.model_dump(mode="json"),
        roles,
    )


def run_header(
    plan: RunPlan, context: ScoringContext, roles: dict[str, Any] | None = None
) -> RunHeader:
    """Provenance fields of the summary (no secrets, no wall-clock times)."""
    config = plan.config
    return RunHeader(
        suite=config.suite,
        suite_name=plan.suite.name,
        mode=plan.mode_name,
        assistant=config.assistant,
        user=config.user,
        trials=config.trials,
        toolplay_version=__version__,
        embedding_model=context.embedding_model,
        scoring=context.settings.changed() or None,
        plugins=list(plan.catalog.plugins),
        assistant_settings=(roles or {}).get("assistant", {}),
        user_settings=(roles or {}).get("user", {}),
        presentation=config.presentation,
        departures=plan.departures or None,
    )


def record_scenario_info(store: RunStore, scenarios: Sequence[Scenario]) -> None:
    """Store what reports show about each selected scenario (they never load the suite)."""
    store.set_meta(
        SCENARIO_INFO,
        {s.id: scenario_info(s).model_dump(mode="json", exclude_none=True) for s in scenarios},
    )


def run_catalog(run_dir: Path, plugins: Sequence[str] = ()) -> Catalog:
    """The catalog a stored run is read with: the built-ins, the installed plugins, the run's
    own plugins and `plugins`.

    Raises:
        RunError: A plugin does not load.
    """
    stored = stored_settings(run_dir) or {}
    wanted = list(dict.fromkeys([*(stored.get("plugins") or []), *plugins]))
    return catalog_for(RunConfig(plugins=wanted))


async def execute_run(
    config: RunConfig,
    *,
    catalog: Catalog | None = None,
    progress: Progress | None = None,
    context: ScoringContext | None = None,
    stats: RunStats | None = None,
    executor: Executor | None = None,
) -> RunSummary:
    """Run `config` to completion and return the summary (also written to summary.json).

    Args:
        config: What to run.
        catalog: Where suites, modes, scorers and roles are looked up (default: the built-ins,
            the installed plugins and `config.plugins`).
        progress: Called with (finished, total) as trials finish.
        context: Scoring resources (default: what the suite's scorers need, loaded lazily).
        stats: Filled with what the run did beside its results (cache hits).
        executor: Where trials are played (default: `LocalExecutor`, this process).
    """
    plan = resolve_run(config, catalog, intent="run")
    plan.warn_departures()
    cache = SqliteResponseCache(plan.config.cache) if plan.config.cache else None
    try:
        assistant, user = plan.roles(cache)
        player = plan.player(assistant, user)
        plan = plan.fit_trials(player)
        context = context or plan.scoring_context()
        store = open_run(plan.config, plan.pin)
    except BaseException:
        if cache is not None:
            cache.close()
        raise
    config, scenarios = plan.config, plan.scenarios
    roles = role_settings(assistant, user)
    try:
        store.set_meta("roles", roles)
        store.set_meta(SUITE_IDS, sorted(e.id for e in plan.suite.entries()))
        record_scenario_info(store, scenarios)
        store.set_meta(_UNCERTAINTY, config.uncertainty.model_dump(mode="json"))
        write_json(config.out / CONFIG_FILE, config.model_dump(mode="json"))
        restore_files(store, config.out)
        done = store.done()
        todo = [(s, t) for s in scenarios for t in range(config.trials) if (s.id, t) not in done]
        total = len(scenarios) * config.trials
        work = TrialWork(plan.catalog, player, plan.mode_name, user.name, context)
        with StoreWriter(
            store, config.out, roles, total=total, finished=total - len(todo), progress=progress
        ) as writer:
            await (executor or LocalExecutor()).execute(RunJob(config, work, todo), writer.write)
        if cache is not None:
            logger.info(
                "response cache %s: %d hits, %d misses", cache.path, cache.hits, cache.misses
            )
            if stats is not None:
                stats.cache_hits, stats.cache_misses = cache.hits, cache.misses
        summary = build_summary(
            scenarios,
            store.results(keys=SUMMARY_KEYS),
            run_header(plan, context, roles),
            plan.catalog.scorers,
            uncertainty=config.uncertainty,
            user_checks=list(plan.catalog.user_checks),
        )
        write_json(config.out / SUMMARY_FILE, summary.to_json())
        return summary
    finally:
        store.close()
        await _close_roles(assistant, user)
        if cache is not None:
            cache.close()


def _stored_uncertainty(store: RunStore) -> UncertaintySettings:
    """The interval settings a run's summary was last made with (defaults when unreadable)."""
    try:
        return UncertaintySettings.model_validate(store.get_meta(_UNCERTAINTY))
    except ValidationError:
        return UncertaintySettings()


def stored_config(run_dir: Path, store: RunStore) -> RunConfig:
    """The configuration a stored run was made with (older formats migrated)."""
    stored = store.get_meta("config")
    if stored is None:
        raise RunError(f"{run_dir}: the store holds no run configuration")
    return RunConfig.model_validate({**stored, "out": str(run_dir)})


def rescore_run(
    run_dir: Path,
    *,
    catalog: Catalog | None = None,
    plugins: Sequence[str] = (),
    context: ScoringContext | None = None,
    uncertainty: UncertaintySettings | None = None,
    version: VersionRequest | None = None,
) -> RunSummary:
    """Recompute every score of a stored run from its trajectories; no model is called.

    Without a `catalog`, the run's own plugins and `plugins` are loaded besides the built-ins.
    Trials stored as a scorer's failure are scored again; a scorer that raises now is
    recorded as its failure, as `toolplay run` records it. The summary's intervals use
    `uncertainty` (default: the settings stored with the run, else the defaults), which are
    stored with the run for the next `rescore_run`. The run is scored at its suite version, or
    at the one `version` asks for (`runs._suite_version`; refused, with nothing changed, when
    that version changes what was played).
    """
    store = RunStore.in_dir(run_dir, exclusive=True)
    try:
        config = stored_config(run_dir, store)
        wanted = list(dict.fromkeys([*config.plugins, *plugins]))
        catalog = catalog_for(config.model_copy(update={"plugins": wanted}), catalog)
        results = store.results()
        retarget = _retarget(version, {r.scenario_id for r in results}, catalog)
        plan = resolve_run(config, catalog, intent="score", retarget=retarget)
        config = plan.config
        context = context or plan.scoring_context()
        by_id = {s.id: s for s in plan.scenarios}
        roles = store.get_meta("roles")
        for result in results:
            if result.scenario_id not in by_id or not _scorable(result):
                continue
            scenario = by_id[result.scenario_id]
            trajectory = Trajectory.model_validate(result.trajectory)
            scorer = catalog.scorer(scenario.evaluation)
            score, error = score_or_failure(scorer, catalog.setup(scenario), trajectory, context)
            if score is not None and result.status == "done":
                store.update_score(result.scenario_id, result.trial, score.model_dump(mode="json"))
            else:
                store.save_result(
                    result.scenario_id,
                    result.trial,
                    status="done" if score is not None else "error",
                    trajectory=result.trajectory,
                    score=None if score is None else score.model_dump(mode="json"),
                    error=error,
                )
        if version is not None:
            _store_version(store, run_dir, config)
        restore_files(store, run_dir)  # the files follow the new scores (and any damage heals)
        record_scenario_info(store, plan.scenarios)  # runs stored before trajectories had it
        header = run_header(plan, context, roles)
        settings = uncertainty or _stored_uncertainty(store)
        store.set_meta(_UNCERTAINTY, settings.model_dump(mode="json"))
        summary = build_summary(
            plan.scenarios,
            store.results(keys=SUMMARY_KEYS),
            header,
            catalog.scorers,
            uncertainty=settings,
            user_checks=list(catalog.user_checks),
        )
        write_json(run_dir / SUMMARY_FILE, summary.to_json())
        return summary
    finally:
        store.close()


def _retarget(version: VersionRequest | None, held: set[str], catalog: Catalog) -> Retarget | None:
    """How `rescore_run` moves the run to the suite version asked for (None: it stays)."""
    if version is None:
        return None

    def retarget(config: RunConfig, suite: Suite, scenarios: Sequence[Scenario]) -> RunConfig:
        return retarget_version(config, version, suite, list(scenarios), held, catalog)

    return retarget


def _scorable(result: StoredResult) -> bool:
    """A stored trial to score again: a scored one, or one its scorer failed on."""
    return result.status == "done" or scorer_failure(result.error)


def _store_version(store: RunStore, run_dir: Path, config: RunConfig) -> None:
    """Record a re-scored run's suite version in the store and in config.json (which keeps
    its operational settings).
    """
    store.set_meta("config", run_identity(config))
    try:
        full = RunConfig.model_validate(
            json.loads((run_dir / CONFIG_FILE).read_text(encoding="utf-8"))
        )
    except (OSError, ValueError):
        full = config
    updated = full.model_copy(update={"suite_version": config.suite_version})
    write_json(run_dir / CONFIG_FILE, updated.model_dump(mode="json"))


def load_summary(run_dir: Path) -> RunSummary:
    """Read a run's summary.json."""
    text = (run_dir / SUMMARY_FILE).read_text(encoding="utf-8")
    return RunSummary.model_validate(json.loads(text))
