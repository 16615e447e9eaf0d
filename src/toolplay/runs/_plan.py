"""One run plan: a run's configuration resolved against the catalog, the same way everywhere.

`resolve_run(config, catalog, intent=...)` is the one place a run is assembled: `toolplay run`
(new or resumed), `toolplay score`, a Ray worker, an Inspect task and `toolplay validate` all
start from the `RunPlan` it returns. In order:

1. the catalog (the built-ins, the installed plugins and `config.plugins`);
2. the components' settings, checked against the models that declare them and filled in
   (`resolve_settings`), before anything is loaded;
3. the suite spec: pinned for a new or resumed run (absolute paths and a fingerprint of the
   files, `_suite_pin`, and its suite version's errata digest, `_suite_version`; a resumed run
   keeps the presentation it was stored with), checked unchanged for a stored run being
   scored, taken as it is for play elsewhere;
4. for a new or resumed run, the run folder is checked (`check_out`: nothing is created by a
   run that cannot start);
5. the suite, the mode it names (`Suite.mode`), the presentation (given, else the suite's) and
   how the run departs from the paper's setup on this suite (`Suite.paper_setup`);
6. the scenarios: `--augment` selected or applied, `--category`, `--limit`
   (`select_scenarios`), at the run's suite version (`versioned_scenarios`; a re-score may
   move the run to another version first, `retarget`).

The plan then builds what a run needs from it: the scoring context, the roles and the player
(`player`: the mode playing the roles, or a recording being read, `conversation.player_for`),
whose trials fit the plan's (`fit_trials`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import ValidationError

from toolplay.catalog import Catalog, CatalogError, build_catalog
from toolplay.clients import ResponseCache, RoleOptionError
from toolplay.conversation import Mode, Player, player_for
from toolplay.roles import Assistant, Presentation, RecordingError, RoleSpecError, User
from toolplay.runs._config import RunConfig, resolve_settings
from toolplay.runs._preflight import RunError, check_out
from toolplay.runs._select import select_scenarios
from toolplay.runs._suite_pin import fingerprint, pin_suite, suite_path
from toolplay.runs._suite_version import pin_suite_version, versioned_scenarios
from toolplay.scenarios import Scenario, Suite
from toolplay.scoring import ScoringContext
from toolplay.store import RunStore

__all__ = ["Intent", "RunPlan", "resolve_run"]

logger = logging.getLogger(__name__)

Intent = Literal["run", "score", "play"]
"""What the plan is for: `run` a new or resumed run (its suite pinned, its folder checked),
`score` a stored run again (its suite checked unchanged), or `play` its scenarios elsewhere
(a Ray worker, an Inspect task, validation: the configuration as it is)."""

R = TypeVar("R", Assistant, User)

Retarget = Callable[[RunConfig, Suite, Sequence[Scenario]], RunConfig]
"""Moves a stored run to another suite version, given its suite and unversioned scenarios."""


@dataclass(frozen=True)
class RunPlan:
    """A run resolved once (see the module docstring)."""

    config: RunConfig
    """The configuration as the run is stored: settings filled in, suite pinned, presentation
    named (and, once `fit_trials`, the trials a recording holds)."""
    catalog: Catalog
    suite: Suite
    mode_name: str
    """The catalog name of the mode (the suite's name for `config.mode`)."""
    mode: Mode
    presentation: Presentation
    scenarios: list[Scenario]
    departures: list[str]
    """How the run departs from the paper's setup on this suite (one sentence each)."""
    pin: Callable[[str], str] = lambda spec: spec
    """How a suite spec is stored (absolute paths), to compare with a stored run's."""

    def scoring_context(self) -> ScoringContext:
        """The scoring resources and settings of the plan's scenarios (loaded lazily)."""
        return self.catalog.scoring_context(self.scenarios, self.config.scoring)

    def roles(self, cache: ResponseCache | None = None) -> tuple[Assistant, User]:
        """The assistant and the user the configuration names, built with the plan's
        presentation (a spec that cannot be used is refused naming its option).

        Raises:
            RunError: `--assistant` or `--user` names no usable role.
        """
        config = self.config
        assistant = _build_role(
            "--assistant",
            lambda: self.catalog.build_assistant(
                config.assistant,
                config.assistant_model,
                cache=cache,
                concurrency=config.concurrency,
                presentation=self.presentation,
            ),
        )
        user = _build_role(
            "--user",
            lambda: self.catalog.build_user(
                config.user,
                config.user_options(),
                cache=cache,
                concurrency=config.concurrency,
                presentation=self.presentation,
            ),
        )
        return assistant, user

    def player(self, assistant: Assistant, user: User) -> Player:
        """Who gives the trajectories: the mode playing the roles, or a recording read."""
        return player_for(assistant, user, self.mode, self.config.play, self.presentation)

    def fit_trials(self, player: Player) -> RunPlan:
        """The plan with the trials `player` gives (a recording holds as many as it holds).

        Raises:
            RunError: The player cannot give these scenarios' trials (naming what is missing).
        """
        try:
            trials = player.trials([s.id for s in self.scenarios], self.config.trials)
        except RecordingError as exc:
            raise RunError(f"--assistant: {exc}") from exc
        if trials == self.config.trials:
            return self
        return replace(self, config=self.config.model_copy(update={"trials": trials}))

    def warn_departures(self) -> None:
        """Warn once per way the run departs from the paper's setup."""
        for departure in self.departures:
            logger.warning("not the paper's setup for %s: %s", self.suite.name, departure)


def _build_role(flag: str, build: Callable[[], R]) -> R:
    """`build()`; an unusable spec is refused naming the option it came from."""
    try:
        return build()
    except (RoleSpecError, RoleOptionError) as exc:
        raise RunError(f"{flag}: {exc}") from exc


def catalog_for(config: RunConfig, catalog: Catalog | None = None) -> Catalog:
    """`catalog`, else the built-ins, the installed plugins and `config.plugins`.

    Raises:
        RunError: A plugin does not load.
    """
    if catalog is not None:
        return catalog
    try:
        return build_catalog(config.plugins)
    except CatalogError as exc:
        raise RunError(f"--plugin: {exc}") from exc


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


def paper_departures(config: RunConfig, suite: Suite) -> list[str]:
    """How `config` departs from the paper's setup on `suite` (one sentence each)."""
    if suite.paper_setup is None:
        return []
    return suite.paper_setup(config.model_dump(mode="json"))


def resolve_run(
    config: RunConfig,
    catalog: Catalog | None = None,
    *,
    intent: Intent = "run",
    retarget: Retarget | None = None,
) -> RunPlan:
    """Resolve `config` into the plan every entry point runs (see the module docstring).

    Args:
        config: What to run (for `score`, the stored configuration).
        catalog: Where everything is looked up (default: the built-ins, the installed plugins
            and `config.plugins`).
        intent: What the plan is for (`Intent`).
        retarget: For `score`: the run moved to another suite version before its scenarios
            are versioned (`toolplay score --suite-version`).

    Raises:
        RunError: A plugin, the run folder, the mode, the presentation or the scenarios
            chosen cannot serve the run (naming the option).
        OptionError, SettingError: A setting no component declares, or a value it refuses.
    """
    catalog = catalog_for(config, catalog)
    config = resolve_settings(config, catalog)
    typed = config.suite  # loaded as typed, so errors name files as the user wrote them
    pin: Callable[[str], str] = lambda spec: spec  # noqa: E731
    if intent == "run":
        config, pin = pin_config(config, catalog)
        config = pin_suite_version(config)
        if config.resume and config.presentation is None:  # a resumed run keeps what it showed
            config = config.model_copy(update={"presentation": stored_presentation(config.out)})
        check_out(config, pin)
    elif intent == "score":
        check_suite_unchanged(config.out, config, catalog)
    suite = catalog.load_suite(typed)
    mode_name = suite.mode(config.mode)
    try:
        mode = catalog.mode(mode_name)
    except CatalogError as exc:
        raise RunError(f"--mode: {exc}") from exc
    config, presentation = resolve_presentation(config, suite, catalog)
    # --augment is folded into the scenarios (selected or applied), not passed to the modes
    scenarios = select_scenarios(suite, config.limit, config.augment, config.categories)
    if retarget is not None:
        config = retarget(config, suite, scenarios)
    if intent == "score":
        config = pin_suite_version(config)
    scenarios = versioned_scenarios(config, suite, scenarios, catalog)  # the run's errata
    departures = paper_departures(config, suite)
    return RunPlan(
        config, catalog, suite, mode_name, mode, presentation, scenarios, departures, pin
    )
