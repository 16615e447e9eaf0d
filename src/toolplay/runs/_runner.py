"""Execute a run: play every scenario trial, score it, store it, summarise the store.

Scenario trials run concurrently (`concurrency`), each with its own world; the roles learn which
trial they serve from their context (seed, cache key). Each
finished trial is committed to the store before it is reported, by one writer thread (file
first, then the transaction; trials that queue up share one, `_writer.StoreWriter`), so an
interrupted run resumes from the store with nothing lost
and nothing played twice; trials that ended in an infrastructure error, or that the harness
itself failed to play or score, are stored as errors with their cause and played again on
resume. Reopening a run (`--resume`, `toolplay score`) takes the store's exclusive lock, drops
rows that fail their checksum (resume plays them again) and brings the files back in step with
the store (`_restore`). `config.cache` names a response cache file handed to the roles.

Everything is looked up in the catalog (`toolplay.catalog`), built once per run from the
built-ins, the installed plugins and `config.plugins`, and each scenario is resolved once
(`Catalog.setup`) and that setup passed to its mode and its scorer.

An assistant that is a `Recording` (a published results file) is read, not played: before the
run it says how many trials it holds (`fit_to_recording`; a recording that cannot be scored is
refused before anything is written), and each trial's trajectory is its record instead of the
mode's play. Scoring is the same either way, with the run's `ScoringSettings`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from toolplay import __version__
from toolplay.catalog import Catalog, CatalogError, build_catalog
from toolplay.clients import RoleOptionError
from toolplay.messages import Trajectory, compact_exchanges
from toolplay.roles import (
    Assistant,
    Presentation,
    Recording,
    RecordingError,
    RoleSpecError,
    User,
)
from toolplay.runs._cache import SqliteResponseCache
from toolplay.runs._config import RunConfig, run_identity
from toolplay.runs._executor import Executor, LocalExecutor, RunJob
from toolplay.runs._preflight import (
    RunError,
    check_identity,
    check_out,
    check_paths,
)
from toolplay.runs._restore import restore_files, stored_records
from toolplay.runs._select import select_scenarios
from toolplay.runs._suite_pin import fingerprint, pin_suite, suite_path
from toolplay.runs._summary import RunHeader, RunSummary, build_summary
from toolplay.runs._trial import TrialOutcome, TrialWork, scenario_info
from toolplay.runs._writer import StoreWriter
from toolplay.scenarios import Scenario, Suite
from toolplay.scoring import ScenarioScore, ScoringContext, score_trajectory
from toolplay.stats import UncertaintySettings
from toolplay.store import (
    CONFIG_FILE,
    SCENARIO_INFO,
    SUITE_IDS,
    SUMMARY_FILE,
    RunStore,
    write_json,
)

logger = logging.getLogger(__name__)

_UNCERTAINTY = "uncertainty"
"""Store meta key of the interval settings (not part of the run's identity)."""

Progress = Callable[[int, int], None]
"""Called with (finished, total) after every scenario trial."""


@dataclass
class RunStats:
    """What a run did beside its results, for the person watching (never stored: a resumed
    or cached run must give the same files): how many model calls the response cache served.
    """

    cache_hits: int = 0
    cache_misses: int = 0


R = TypeVar("R", Assistant, User)


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
    """`config` with the trials a recording holds, when the assistant is a `Recording`.

    Raises:
        RunError: The recording cannot serve these scenarios (naming what is missing).
    """
    if not isinstance(assistant, Recording):
        return config
    try:
        trials = assistant.trials([s.id for s in scenarios], config.trials)
    except RecordingError as exc:
        raise RunError(f"--assistant: {exc}") from exc
    return config if trials == config.trials else config.model_copy(update={"trials": trials})


def pin_config(config: RunConfig, catalog: Catalog) -> tuple[RunConfig, Callable[[str], str]]:
    """`config` with its suite pinned (absolute paths, fingerprint; `runs._suite_pin`), and the
    pinning function, for comparing with a stored run's spec.
    """
    importers, suites = set(catalog.importers), set(catalog.suites)

    def pin(spec: str) -> str:
        return pin_suite(spec, importers, suites)

    spec = pin(config.suite)
    found = fingerprint(suite_path(spec, importers, suites))
    return config.model_copy(update={"suite": spec, "suite_fingerprint": found}), pin


def check_suite_unchanged(run_dir: Path, config: RunConfig, catalog: Catalog) -> None:
    """Refuse to re-score a run whose suite is gone or whose files changed (clear reasons).

    Raises:
        RunError: The suite's path no longer exists, or its fingerprint differs.
    """
    path = suite_path(config.suite, set(catalog.importers), set(catalog.suites))
    if path is None:
        return
    if not path.exists():
        raise RunError(
            f"{run_dir}: the run's suite {path} no longer exists (moved or deleted?); the run "
            f"was made with --suite {config.suite}"
        )
    if config.suite_fingerprint is not None and fingerprint(path) != config.suite_fingerprint:
        raise RunError(
            f"{run_dir}: the files of suite {path} changed since the run was made (their "
            "fingerprint differs); scoring would not be of the scenarios that were played"
        )


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


def _build_role(flag: str, build: Callable[[], R]) -> R:
    """`build()`; an unusable spec is refused naming the option it came from."""
    try:
        return build()
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
        compact_exchanges(trajectory.model_dump(mode="json")),
        None if score is None else score.model_dump(mode="json"),
        roles,
    )


def run_header(
    config: RunConfig,
    suite: Suite,
    mode: str,
    context: ScoringContext,
    roles: dict[str, Any] | None = None,
    plugins: Sequence[str] = (),
) -> RunHeader:
    """Provenance fields of the summary (no secrets, no wall-clock times)."""
    return RunHeader(
        suite=config.suite,
        suite_name=suite.name,
        mode=mode,
        assistant=config.assistant,
        user=config.user,
        trials=config.trials,
        toolplay_version=__version__,
        embedding_model=context.embedding_model,
        scoring=context.settings.changed() or None,
        plugins=list(plugins),
        assistant_settings=(roles or {}).get("assistant", {}),
        user_settings=(roles or {}).get("user", {}),
        presentation=config.presentation,
    )


def record_scenario_info(store: RunStore, scenarios: Sequence[Scenario]) -> None:
    """Store what reports show about each selected scenario (they never load the suite)."""
    store.set_meta(
        SCENARIO_INFO,
        {s.id: scenario_info(s).model_dump(mode="json", exclude_none=True) for s in scenarios},
    )


def resolve_presentation(
    config: RunConfig, suite: Suite, catalog: Catalog
) -> tuple[RunConfig, Presentation]:
    """`config` with its presentation named (given, else the suite's), and that presentation.

    Raises:
        RunError: The name is not a registered presentation.
    """
    name = config.presentation or suite.presentation
    try:
        presentation = catalog.presentation(name)
    except CatalogError as exc:
        raise RunError(f"--presentation: {exc}") from exc
    return config.model_copy(update={"presentation": name}), presentation


def stored_presentation(run_dir: Path) -> str | None:
    """The presentation a stored run used (None when there is no stored run)."""
    if not (run_dir / RunStore.FILENAME).exists():
        return None
    store = RunStore.in_dir(run_dir)
    try:
        stored = store.get_meta("config")
    finally:
        store.close()
    if not isinstance(stored, dict):
        return None
    try:
        return RunConfig.model_validate({**stored, "out": str(run_dir)}).presentation
    except ValidationError:
        return None


def paper_departures(config: RunConfig, suite: Suite) -> list[str]:
    """How `config` departs from the paper's setup on `suite` (warned once, here)."""
    if suite.paper_setup is None:
        return []
    departures = suite.paper_setup(config.model_dump(mode="json"))
    for departure in departures:
        logger.warning("not the paper's setup for %s: %s", suite.name, departure)
    return departures


def _catalog(config: RunConfig, catalog: Catalog | None) -> Catalog:
    if catalog is not None:
        return catalog
    try:
        return build_catalog(config.plugins)
    except CatalogError as exc:
        raise RunError(f"--plugin: {exc}") from exc


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
    catalog = _catalog(config, catalog)
    typed = config.suite  # loaded as typed, so errors name files as the user wrote them
    config, pin = pin_config(config, catalog)
    if config.resume and config.presentation is None:  # a resumed run keeps what it showed
        config = config.model_copy(update={"presentation": stored_presentation(config.out)})
    check_out(config, pin)
    suite = catalog.load_suite(typed)
    mode_name = suite.mode(config.mode)
    try:
        mode = catalog.mode(mode_name)
    except CatalogError as exc:
        raise RunError(f"--mode: {exc}") from exc
    config, presentation = resolve_presentation(config, suite, catalog)
    departures = paper_departures(config, suite)
    # --augment is folded into the scenarios (selected or applied), not passed to the modes
    scenarios = select_scenarios(suite, config.limit, config.augment)
    cache = SqliteResponseCache(config.cache) if config.cache else None
    try:
        assistant = _build_role(
            "--assistant",
            lambda: catalog.build_assistant(
                config.assistant,
                config.assistant_model,
                cache=cache,
                concurrency=config.concurrency,
                presentation=presentation,
            ),
        )
        user = _build_role(
            "--user",
            lambda: catalog.build_user(
                config.user,
                config.user_options(),
                cache=cache,
                concurrency=config.concurrency,
                presentation=presentation,
            ),
        )
        config = fit_to_recording(config, assistant, scenarios)
        context = context or catalog.scoring_context(scenarios, config.scoring)
        store = open_run(config, pin)
    except BaseException:
        if cache is not None:
            cache.close()
        raise
    roles = role_settings(assistant, user)
    try:
        store.set_meta("roles", roles)
        store.set_meta(SUITE_IDS, sorted(e.id for e in suite.entries()))
        record_scenario_info(store, scenarios)
        store.set_meta(_UNCERTAINTY, config.uncertainty.model_dump(mode="json"))
        write_json(config.out / CONFIG_FILE, config.model_dump(mode="json"))
        restore_files(store, config.out)
        done = store.done()
        todo = [(s, t) for s in scenarios for t in range(config.trials) if (s.id, t) not in done]
        total, finished = len(scenarios) * config.trials, len(scenarios) * config.trials - len(todo)
        writer = StoreWriter(store, config.out, roles)

        async def finish(outcome: TrialOutcome) -> None:
            nonlocal finished
            await writer.store(outcome)  # committed: durable, counted (see `_writer`)
            finished += 1
            if progress:
                progress(finished, total)

        work = TrialWork(
            catalog, mode, mode_name, assistant, user, config.play, context, presentation
        )
        job = RunJob(config, work, todo)
        if progress:
            progress(finished, total)
        try:
            await (executor or LocalExecutor()).execute(job, finish)
        finally:
            writer.close()
        if cache is not None:
            logger.info(
                "response cache %s: %d hits, %d misses", cache.path, cache.hits, cache.misses
            )
            if stats is not None:
                stats.cache_hits, stats.cache_misses = cache.hits, cache.misses
        header = run_header(config, suite, mode_name, context, roles, catalog.plugins)
        header = header.model_copy(update={"departures": departures or None})
        summary = build_summary(
            scenarios, store.results(), header, catalog.scorers, uncertainty=config.uncertainty
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
) -> RunSummary:
    """Recompute every score of a stored run from its trajectories; no model is called.

    Without a `catalog`, the run's own plugins and `plugins` are loaded besides the built-ins.
    The summary's intervals use `uncertainty` (default: the settings stored with the run,
    else the defaults), which are stored with the run for the next `rescore_run`.
    """
    store = RunStore.in_dir(run_dir, exclusive=True)
    try:
        config = stored_config(run_dir, store)
        wanted = list(dict.fromkeys([*config.plugins, *plugins]))
        catalog = _catalog(config.model_copy(update={"plugins": wanted}), catalog)
        check_suite_unchanged(run_dir, config, catalog)
        suite = catalog.load_suite(config.suite)
        mode = suite.mode(config.mode)
        scenarios = select_scenarios(suite, config.limit, config.augment)
        context = context or catalog.scoring_context(scenarios, config.scoring)
        by_id = {s.id: s for s in scenarios}
        roles = store.get_meta("roles")
        for result in store.results():
            if result.status != "done" or result.scenario_id not in by_id:
                continue
            scenario = by_id[result.scenario_id]
            trajectory = Trajectory.model_validate(result.trajectory)
            setup = catalog.setup(scenario)
            score = score_trajectory(
                setup, trajectory, catalog.scorer(scenario.evaluation), context
            )
            store.update_score(result.scenario_id, result.trial, score.model_dump(mode="json"))
        restore_files(store, run_dir)  # the files follow the new scores (and any damage heals)
        record_scenario_info(store, scenarios)  # runs stored before trajectories carried it
        header = run_header(config, suite, mode, context, roles, catalog.plugins)
        settings = uncertainty or _stored_uncertainty(store)
        store.set_meta(_UNCERTAINTY, settings.model_dump(mode="json"))
        summary = build_summary(
            scenarios, store.results(), header, catalog.scorers, uncertainty=settings
        )
        write_json(run_dir / SUMMARY_FILE, summary.to_json())
        return summary
    finally:
        store.close()


def load_summary(run_dir: Path) -> RunSummary:
    """Read a run's summary.json."""
    text = (run_dir / SUMMARY_FILE).read_text(encoding="utf-8")
    return RunSummary.model_validate(json.loads(text))
