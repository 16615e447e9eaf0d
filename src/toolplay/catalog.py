"""The catalog: every domain, suite, mode, scorer, role, presentation and user check toolplay
knows.

There is one way to extend toolplay: a *plugin* is a module with a function
`register(catalog: Catalog) -> None` that calls the catalog's `add_*` methods. The built-ins
register exactly that way (`toolplay.builtin.register`). `build_catalog` registers the
built-ins, then every installed package's plugin (Python entry-point group `toolplay.plugins`,
so installing a package extends toolplay with no flag), then the modules named by `--plugin`.
A name registered twice is an error naming both, never a silent override.

The catalog is built once per command and passed down; nothing else holds a registry. Lower
layers get only the piece they need: scenario loading a `LoadContext` (tool catalog and
evaluation names), play a `ScenarioSetup`, scoring the `Scorer` of a scenario.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from toolplay.clients import ModelOptions, ResponseCache, RoleOptionError
from toolplay.conversation import Mode, PlaySettings
from toolplay.errors import InputError
from toolplay.roles import (
    Assistant,
    Presentation,
    ReplayFormat,
    RoleKind,
    RoleRequest,
    RoleSpecError,
    User,
)
from toolplay.scenarios import (
    LoadContext,
    Scenario,
    ScenarioError,
    ScenarioSetup,
    Suite,
    SuiteLoader,
    SuiteSource,
    resolve_suite,
    setup_scenario,
)
from toolplay.scoring import Scorer, ScoringContext, ScoringSettings, scoring_context
from toolplay.settings import Settings
from toolplay.tools import Domain, ToolCatalog
from toolplay.users import UserCheck, UserChecking, UserFactsSource

logger = logging.getLogger(__name__)

DEFAULT_PRESENTATION = "toolplay"
"""The presentation of a suite that names none, and of roles built without one."""

ENTRY_POINT_GROUP = "toolplay.plugins"
"""Python entry-point group of installed plugins; each entry names a `register` function."""

Register = Callable[["Catalog"], None]

_CORE_PREFIXES = ("user_", "ci_")
"""Option-name prefixes of the core's own settings (a user's model options, the intervals')."""


class CatalogError(InputError):
    """A plugin could not be loaded, or registered something twice or incompletely."""


class Catalog:
    """Everything that can be named on the command line or in a scenario file."""

    def __init__(self) -> None:
        """An empty catalog (`build_catalog` fills one with the built-ins and plugins)."""
        self.tools = ToolCatalog()
        self._suites: dict[str, SuiteSource] = {}
        self._importers: dict[str, SuiteSource] = {}
        self._modes: dict[str, Mode] = {}
        self._scorers: dict[str, Scorer] = {}
        self._assistants: dict[str, RoleKind] = {}
        self._users: dict[str, RoleKind] = {}
        self._presentations: dict[str, Presentation] = {}
        self._replays: dict[str, ReplayFormat] = {}
        self._play_fields: dict[str, type[Settings]] = {}
        self._scoring_fields: dict[str, type[Settings]] = {}
        self._user_checks: dict[str, UserCheck] = {}
        self._user_facts: dict[str, UserFactsSource] = {}
        self.plugins: list[str] = []
        """Where each registered plugin came from (recorded with a run)."""

    # -- registration --------------------------------------------------------------------

    def add_domain(self, domain: Domain) -> None:
        """A tool domain: its tools and tables."""
        self.tools.add_domain(domain)

    def add_domain_group(self, name: str, members: Sequence[str]) -> None:
        """A name standing for several domains wherever a domain name is accepted."""
        self.tools.add_group(name, members)

    def add_suite(self, name: str, load: SuiteLoader, description: str = "") -> None:
        """A named suite (`--suite NAME`); `load(argument, context)` gets an empty argument."""
        self._add(self._suites, "suite", SuiteSource(name, load, description))

    def add_importer(
        self, name: str, load: SuiteLoader, description: str = "", argument: str = "PATH"
    ) -> None:
        """A suite source taking an argument (`--suite NAME:ARGUMENT`, e.g. `tooltalk:DIR`)."""
        self._add(self._importers, "importer", SuiteSource(name, load, description, argument))

    def add_mode(self, mode: Mode) -> None:
        """A mode of play (`--mode NAME`), with its settings when it declares some."""
        self._check_settings(mode.settings, f"mode {mode.name!r}")
        self._add(self._modes, "mode", mode)
        self._add_settings(self._play_fields, mode.settings)

    def add_scorer(self, scorer: Scorer) -> None:
        """A scoring method, named by scenarios' `evaluation`, with its metrics (and its
        settings when it declares some).
        """
        if not scorer.metrics:
            raise CatalogError(f"scorer {scorer.name!r} declares no metrics")
        self._check_settings(scorer.settings, f"scorer {scorer.name!r}")
        self._add(self._scorers, "scorer", scorer)
        self._add_settings(self._scoring_fields, scorer.settings)

    def add_replay_format(self, replay: ReplayFormat) -> None:
        """A kind of saved output `--assistant replay:PATH` reads back."""
        self._add(self._replays, "replay format", replay)

    def replay(self, request: RoleRequest) -> object:
        """The role `replay:PATH` names: built by the first registered format that accepts
        PATH, else by the one that takes any PATH.

        Raises:
            RoleOptionError: No PATH was given, or no format reads it.
        """
        formats = list(self._replays.values())
        if not request.argument:
            what = " or ".join(f.what for f in formats) or "saved outputs"
            usages = "|".join(f.usage.removeprefix("replay:") for f in formats) or "PATH"
            raise RoleOptionError(f"replay needs {what}: --assistant replay:{usages}")
        path = Path(request.argument).expanduser()
        chosen = next((f for f in formats if f.accepts is not None and f.accepts(path)), None)
        chosen = chosen or next((f for f in formats if f.accepts is None), None)
        if chosen is None:
            known = ", ".join(f"{f.usage} ({f.what})" for f in formats) or "none registered"
            raise RoleOptionError(f"replay: {path} is none of the saved outputs read: {known}")
        return chosen.build(request)

    def _check_settings(self, model: type[Settings] | None, where: str) -> None:
        """Refuse settings whose field names clash with another model's or the core's.

        Every setting is reached by its name alone (`--option NAME=VALUE`), so a name means
        one thing in a catalog; two modes may share one model (AutoDE's protocol modes do).
        """
        if model is None:
            return
        core = set(PlaySettings.model_fields) | set(ModelOptions.model_fields)
        for name in model.model_fields:
            owner = self._play_fields.get(name) or self._scoring_fields.get(name)
            if owner is not None and owner is not model:
                raise CatalogError(
                    f"{where}: setting {name!r} is declared by {owner.__name__} already"
                )
            if name in core or name.startswith(_CORE_PREFIXES):
                raise CatalogError(f"{where}: setting {name!r} clashes with a core option")

    @staticmethod
    def _add_settings(table: dict[str, type[Settings]], model: type[Settings] | None) -> None:
        for name in model.model_fields if model is not None else ():
            table[name] = model  # type: ignore[assignment]

    def add_assistant(self, kind: RoleKind) -> None:
        """A kind of assistant (`--assistant KIND[:ARGUMENT]`)."""
        self._add(self._assistants, "assistant kind", kind)

    def add_user(self, kind: RoleKind) -> None:
        """A kind of user (`--user KIND[:ARGUMENT]`)."""
        self._add(self._users, "user kind", kind)

    def add_presentation(self, presentation: Presentation) -> None:
        """A presentation (`--presentation NAME`): what a model is shown and how its answer is
        read; a suite names the one its runs use by default (`Suite.presentation`).
        """
        self._add(self._presentations, "presentation", presentation)

    def add_user_check(self, check: UserCheck) -> None:
        """A user-error check, run over every scored trajectory (`toolplay.users`); its
        definition joins the glossary.
        """
        self._add(self._user_checks, "user check", check)

    def add_user_facts(self, source: UserFactsSource) -> None:
        """A reader of what a method knows about its scenarios' users (withheld facts, slot
        values) that the user-error checks use.
        """
        self._add(self._user_facts, "user facts source", source)

    def _add(self, table: dict[str, Any], what: str, item: Any) -> None:
        name = str(item.name)
        if not name or ":" in name:
            raise CatalogError(f"{what} name {name!r} must be non-empty and contain no ':'")
        if name in table:
            raise CatalogError(f"{what} {name!r} is registered twice")
        table[name] = item

    # -- lookup --------------------------------------------------------------------------

    @property
    def suites(self) -> Mapping[str, SuiteSource]:
        """Named suites by name."""
        return self._suites

    @property
    def importers(self) -> Mapping[str, SuiteSource]:
        """Suite sources that take an argument (`NAME:ARGUMENT`), by name."""
        return self._importers

    @property
    def modes(self) -> Mapping[str, Mode]:
        """Modes by name."""
        return self._modes

    @property
    def scorers(self) -> Mapping[str, Scorer]:
        """Scoring methods by name."""
        return self._scorers

    @property
    def assistants(self) -> Mapping[str, RoleKind]:
        """Kinds of assistant by name."""
        return self._assistants

    @property
    def users(self) -> Mapping[str, RoleKind]:
        """Kinds of user by name."""
        return self._users

    @property
    def play_settings(self) -> Mapping[str, type[Settings]]:
        """Every setting the modes declare: field name -> the model declaring it."""
        return self._play_fields

    @property
    def scoring_settings(self) -> Mapping[str, type[Settings]]:
        """Every setting the scorers declare: field name -> the model declaring it."""
        return self._scoring_fields

    @property
    def replay_formats(self) -> Mapping[str, ReplayFormat]:
        """What `--assistant replay:PATH` reads, by name."""
        return self._replays

    @property
    def presentations(self) -> Mapping[str, Presentation]:
        """Presentations by name."""
        return self._presentations

    @property
    def user_checks(self) -> Mapping[str, UserCheck]:
        """User-error checks by name, in registration order."""
        return self._user_checks

    def user_checking(self) -> UserChecking:
        """The registered user-error checks and fact sources, ready to run."""
        return UserChecking(tuple(self._user_checks.values()), tuple(self._user_facts.values()))

    def presentation(self, name: str) -> Presentation:
        """The presentation `name`; unknown names fail listing the known ones."""
        found = self._presentations.get(name)
        if found is None:
            known = ", ".join(self._presentations)
            raise CatalogError(f"unknown presentation {name!r}; known: {known}")
        return found

    def load_context(self) -> LoadContext:
        """What scenario loading needs: the tool catalog and the known evaluation methods."""
        return LoadContext(self.tools, frozenset(self._scorers))

    def load_suite(self, spec: str) -> Suite:
        """Resolve a suite spec (a name, `NAME:ARGUMENT`, or a path)."""
        return resolve_suite(spec, self._suites, self._importers, self.load_context())

    def setup(self, scenario: Scenario) -> ScenarioSetup:
        """Resolve one scenario's tools and worlds, once."""
        return setup_scenario(scenario, self.load_context())

    def mode(self, name: str) -> Mode:
        """The mode `name`; unknown names fail listing the known ones."""
        found = self._modes.get(name)
        if found is None:
            raise CatalogError(f"unknown mode {name!r}; known: {', '.join(self._modes)}")
        return found

    def scorer(self, evaluation: str) -> Scorer:
        """The scorer of evaluation method `evaluation`."""
        found = self._scorers.get(evaluation)
        if found is None:
            known = ", ".join(self._scorers)
            raise CatalogError(f"no scorer for evaluation {evaluation!r}; known: {known}")
        return found

    def scoring_context(
        self, scenarios: Iterable[Scenario], settings: ScoringSettings | None = None
    ) -> ScoringContext:
        """The scoring resources the methods of `scenarios` need (loaded lazily), with the
        run's scoring `settings` (default: none changed) and the user-error checks.
        """
        methods = {s.evaluation for s in scenarios}
        needs = any(self.scorer(m).needs_similarity for m in methods if m in self._scorers)
        return scoring_context(needs, settings, self.user_checking())

    def build_assistant(
        self,
        spec: str,
        model: ModelOptions | None = None,
        *,
        cache: ResponseCache | None = None,
        concurrency: int = 1,
        presentation: Presentation | None = None,
    ) -> Assistant:
        """The assistant a spec such as `oracle` or `openai:gpt-4o` names (a model-backed one
        builds its requests with `presentation`, default toolplay's).
        """
        kind, request = self._role(spec, self._assistants, "assistant", model, cache, concurrency)
        request = replace(request, presentation=presentation or self._default_presentation())
        built: Assistant = kind.build(request)
        return built

    def build_user(
        self,
        spec: str,
        model: ModelOptions | None = None,
        *,
        cache: ResponseCache | None = None,
        concurrency: int = 1,
        presentation: Presentation | None = None,
    ) -> User:
        """The user a spec such as `scripted` or `openai:gpt-4o-mini` names (a model-driven one
        builds its requests with `presentation`, default toolplay's).
        """
        kind, request = self._role(spec, self._users, "user", model, cache, concurrency)
        request = replace(request, presentation=presentation or self._default_presentation())
        built: User = kind.build(request)
        return built

    def _default_presentation(self) -> Presentation | None:
        return self._presentations.get(DEFAULT_PRESENTATION)

    @staticmethod
    def _role(
        spec: str,
        kinds: Mapping[str, RoleKind],
        what: str,
        model: ModelOptions | None,
        cache: ResponseCache | None,
        concurrency: int,
    ) -> tuple[RoleKind, RoleRequest]:
        name, _, argument = spec.partition(":")
        kind = kinds.get(name)
        if kind is None:
            known = ", ".join(k.usage or k.name for k in kinds.values())
            raise RoleSpecError(f"unknown {what} {spec!r}; known kinds: {known}")
        request = RoleRequest(argument, model or ModelOptions(), cache, concurrency)
        return kind, request


def build_catalog(plugins: Sequence[str] = (), *, installed: bool = True) -> Catalog:
    """The catalog of built-ins, installed plugins and the `plugins` named.

    Args:
        plugins: Modules (dotted names, or paths to `.py` files) whose `register(catalog)`
            function extends the catalog, like `--plugin`.
        installed: Also load every plugin of the `toolplay.plugins` entry-point group.

    Raises:
        CatalogError: A plugin cannot be imported, has no `register`, or its registration fails.
    """
    from toolplay.builtin import register as register_builtins

    catalog = Catalog()
    register_builtins(catalog)
    if installed:
        for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            _run_plugin(catalog, f"entry point {entry.name} ({entry.value})", entry.load)
    for target in plugins:
        _run_plugin(catalog, f"plugin {target}", functools.partial(_import_register, target))
    return catalog


def _run_plugin(catalog: Catalog, where: str, load: Callable[[], Any]) -> None:
    try:
        register = load()
    except CatalogError:
        raise
    except Exception as exc:
        raise CatalogError(f"{where}: cannot load ({exc!r})") from exc
    if not callable(register):
        raise CatalogError(f"{where}: {register!r} is not a register(catalog) function")
    try:
        register(catalog)
    except (CatalogError, ScenarioError) as exc:
        raise CatalogError(f"{where}: {exc}") from exc
    except Exception as exc:
        raise CatalogError(f"{where}: register failed ({exc!r})") from exc
    catalog.plugins.append(where)
    logger.debug("loaded %s", where)


def _import_register(target: str) -> Register:
    """`register` of a module named by dotted name or `.py` path."""
    if target.endswith(".py"):
        path = Path(target).expanduser().resolve()
        if not path.is_file():
            raise CatalogError(f"plugin {target}: no such file")
        spec = importlib.util.spec_from_file_location(f"toolplay_plugin_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise CatalogError(f"plugin {target}: not a Python module")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(target)
    register = getattr(module, "register", None)
    if register is None:
        raise CatalogError(f"plugin {target}: the module has no register(catalog) function")
    return register  # type: ignore[no-any-return]
