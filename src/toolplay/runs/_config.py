"""The resolved configuration of a run, stored with it, and the one definition of every option.

A run's settings are typed: `PlaySettings` (how scenarios are played: the core's fields and
the modes' own, `Mode.settings`), `ScoringSettings` (what a score means: the scorers' own,
`Scorer.settings`, e.g. AutoDE's slot matching), a `ModelOptions` each for the assistant's model
and for a model-driven user's (`user_model`, whose unset fields fall back to the assistant's),
and `UncertaintySettings` (how the summary's intervals are made). Every value is checked before
anything is loaded or written, naming the option: the core's when the config is built, the
components' by `resolve_settings` (against the model that declares each, from the catalog),
which also fills in every registered component's fields, so `config.json` records each
component's parameters.

`--option KEY=VALUE` reaches the same fields by flat key (`option_keys`): a field of
`ModelOptions` is the assistant's, `user_` + that field the user's, a field of `PlaySettings` or
of a mode's settings is play's, a field of a scorer's settings is scoring's (`toolplay score`
reads it back from the stored config), `ci_` + a field of `UncertaintySettings` the intervals'.
An unknown key is refused, listing the known ones. CLI help, validation and the stored
`config.json` all come from these models.

Version 1 configs (before the settings were typed: one flat `options` dict and a top-level
`system_prompt`) are migrated on load, so run folders written then keep resuming and scoring.
Version 3 added `suite_fingerprint` (and stores suite paths absolute, `runs._suite_pin`); a
version 2 config has no fingerprint (None: not checked) and keeps its suite spec as typed.
Version 2 and 3 configs were played with toolplay's context-rich assistant prompt and its own
user briefing, the defaults then: they migrate to `play.prompt_context=true` and
`play.user_simulator=toolplay` (version 4), so a resumed run goes on as it started.
Version 5 added `presentation` (what the models are shown; a new run stores the one it
resolved, by default its suite's); runs of earlier versions were shown toolplay's own and
migrate to `presentation="toolplay"`.
Version 6 added `suite_version` (the suite's errata file and the version of the suite the run
is scored against, `runs._suite_version`); older configs migrate to None: the suite as its
files are, version `none`. Version 7 added `categories` (`--category`: only the scenarios of
these categories); earlier runs chose none and migrate to the empty list.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails

from toolplay.catalog import Catalog, build_catalog
from toolplay.clients import OPERATIONAL, ModelOptions
from toolplay.conversation import PlaySettings
from toolplay.errors import InputError
from toolplay.scenarios import check_augmentation
from toolplay.scoring import ScoringSettings
from toolplay.settings import Settings, SettingsBag
from toolplay.stats import UncertaintySettings

CONFIG_VERSION = 7
USER_PREFIX = "user_"
CI_PREFIX = "ci_"
_SECTIONS = ("assistant_model", "user_model", "play", "scoring", "uncertainty")


_LEGACY_KEYS = {
    "max_calls_per_turn": ("play", "max_calls_per_turn"),
    "max_rounds": ("play", "max_rounds"),
    "stop_marker": ("play", "stop_marker"),
    "submit_text": ("play", "submit_text"),
    "slot_matching": ("scoring", "slot_matching"),
}
"""Where a version 1 config's flat options of the built-in methods went (their settings were
core fields then)."""


class OptionError(InputError):
    """An `--option` key names no setting."""


class SettingError(InputError):
    """A value given for a component's setting is not valid for it (names the option)."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"--option {option}: {reason}")
        self.option = option
        self.reason = reason


def option_keys(catalog: Catalog | None = None) -> dict[str, tuple[str, str]]:
    """Every `--option` key -> (config section, field).

    The components' keys are those of `catalog` (default: the built-ins').
    """
    found = catalog if catalog is not None else build_catalog(installed=False)
    keys: dict[str, tuple[str, str]] = {}
    for name in ModelOptions.model_fields:
        keys[name] = ("assistant_model", name)
        keys[USER_PREFIX + name] = ("user_model", name)
    for name in [*PlaySettings.model_fields, *found.play_settings]:
        keys[name] = ("play", name)
    for name in found.scoring_settings:
        keys[name] = ("scoring", name)
    for name in UncertaintySettings.model_fields:
        keys[CI_PREFIX + name] = ("uncertainty", name)
    return keys


def apply_options(
    data: dict[str, Any], options: dict[str, Any], catalog: Catalog | None = None
) -> dict[str, Any]:
    """`data` (a RunConfig mapping) with flat `options` placed into their sections.

    Raises:
        OptionError: for a key that names no setting of the core or of `catalog`'s
            components (default: the built-ins'); the known keys are listed.
    """
    return _place(data, options, option_keys(catalog))


def _place(
    data: dict[str, Any], options: dict[str, Any], keys: dict[str, tuple[str, str]]
) -> dict[str, Any]:
    unknown = sorted(set(options) - set(keys))
    if unknown:
        raise OptionError(
            f"unknown option {unknown[0]!r}; known options: {', '.join(sorted(keys))}"
        )
    merged = {key: dict(data.get(key) or {}) for key in _SECTIONS}
    for key, value in options.items():
        section, field = keys[key]
        merged[section][field] = value
    return {**data, **merged}


class SuiteVersion(BaseModel):
    """The version of its suite a run is at: an errata file and versions of it
    (`toolplay.scenarios._errata`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    errata: Path = Field(description="The errata file (stored with its absolute path).")
    version: str = Field(
        description="The suite version the run is scored against (`none`: the original)."
    )
    played: str | None = Field(
        default=None,
        description="The version the stored conversations were played under, when a re-score "
        "moved `version` away from it (None: the same as `version`).",
    )
    digest: str | None = Field(
        default=None,
        description="SHA-256 of the errata entries up to the later of the two versions: "
        "score and --resume refuse a file whose entries changed since.",
    )

    @property
    def played_under(self) -> str:
        """The version the conversations were played under."""
        return self.played or self.version


class RunConfig(BaseModel):
    """Everything that determines a run's results (secrets are never part of it)."""

    model_config = ConfigDict(extra="forbid")

    version: int = Field(default=CONFIG_VERSION, description="Format version of this config.")
    suite: str = Field(
        default="quick",
        description="Suite name, NAME:ARG importer, or path (stored with absolute paths).",
    )
    suite_fingerprint: str | None = Field(
        default=None,
        description="SHA-256 of the files the suite was read from when the run started (None "
        "for a built-in suite); --resume and score refuse a suite whose files changed.",
    )
    mode: str | None = Field(default=None, description="Mode of play (default: the suite's).")
    presentation: str | None = Field(
        default=None,
        description="What the models are shown and how their answers are read: a method's "
        "reference presentation sends what its reference sends (default: the suite's; "
        "'toolplay' is toolplay's own). Stored resolved.",
    )
    assistant: str = Field(default="oracle", description="Assistant spec, e.g. oracle.")
    user: str = Field(default="scripted", description="User spec, e.g. scripted.")
    categories: list[str] = Field(
        default_factory=list,
        description="Only the scenarios of these categories (any of them; applied before --limit).",
    )
    limit: int | None = Field(default=None, ge=1, description="Only the first N scenarios.")
    out: Path = Field(default=Path("runs/latest"), description="Run directory to write.")
    concurrency: int = Field(default=1, ge=1, description="Scenarios played at once.")
    trials: int = Field(default=1, ge=1, description="Trials per scenario.")
    resume: bool = Field(default=False, description="Continue the run stored in --out.")
    augment: list[str] = Field(
        default_factory=list,
        description="Augmentation settings (`none` = unaugmented): selects a suite's "
        "augmentation variants, or applies them to a suite without variants.",
    )
    play: PlaySettings = Field(default_factory=PlaySettings)
    scoring: ScoringSettings = Field(default_factory=ScoringSettings)
    assistant_model: ModelOptions = Field(default_factory=ModelOptions)
    user_model: ModelOptions = Field(
        default_factory=ModelOptions,
        description="A model-driven user's model options; unset fields are the assistant's.",
    )
    cache: Path | None = Field(
        default=None, description="Response cache file (SQLite), shared across runs."
    )
    plugins: list[str] = Field(
        default_factory=list, description="Plugin modules loaded besides the installed ones."
    )
    suite_version: SuiteVersion | None = Field(
        default=None,
        description="The suite's errata and the version the run is at (None: the suite as "
        "its files are, version `none`).",
    )
    uncertainty: UncertaintySettings = Field(
        default_factory=UncertaintySettings,
        description="How the summary's confidence intervals are computed (not part of the "
        "run's identity: --resume may change them).",
    )

    @field_validator("augment")
    @classmethod
    def _known_augmentations(cls, names: list[str]) -> list[str]:
        for name in names:
            check_augmentation(name)
        return names

    @model_validator(mode="before")
    @classmethod
    def _migrate(cls, data: Any) -> Any:
        return migrate_config(data) if isinstance(data, dict) else data

    def user_options(self) -> ModelOptions:
        """The user's model options with the assistant's filling what is not given."""
        return self.user_model.over(self.assistant_model)


def migrate_config(data: dict[str, Any]) -> dict[str, Any]:
    """A stored config of any version, in the current format (version 1: flat `options`;
    versions 2 and 3: the former prompt defaults; version 2: no `suite_fingerprint`, which stays
    None; versions 1 to 4: toolplay's own presentation; versions 1 to 5: no suite version;
    versions 1 to 6: no category filter).
    """
    # a stored version 1 config has a flat `options`; a config built now may omit `version`
    legacy = "options" in data or "system_prompt" in data
    version = data.get("version", 1 if legacy else CONFIG_VERSION)
    if version >= CONFIG_VERSION:
        return data
    if version == 6:  # 6 -> 7: no category filter
        return {**data, "categories": data.get("categories") or [], "version": 7}
    if version == 5:  # 5 -> 6: no suite version (the original suite)
        return migrate_config({**data, "version": 6})
    if version == 4:
        presentation = data.get("presentation") or "toolplay"
        return migrate_config({**data, "presentation": presentation, "version": 5})
    if version in (2, 3):
        play = dict(data.get("play") or {})
        play.setdefault("prompt_context", True)
        play.setdefault("user_simulator", "toolplay")
        return migrate_config({**data, "play": play, "version": 4})
    old = dict(data)
    options = dict(old.pop("options", None) or {})
    prompt = old.pop("system_prompt", None)
    cache = options.pop("cache", None)
    keys = {**option_keys(Catalog()), **_LEGACY_KEYS}
    migrated = _place(old, {k: v for k, v in options.items() if k in keys}, keys)
    if prompt is not None:
        migrated["play"]["system_prompt"] = prompt
    play = migrated.setdefault("play", {})
    play.setdefault("prompt_context", True)
    play.setdefault("user_simulator", "toolplay")
    if cache is not None and "cache" not in migrated:
        migrated["cache"] = cache
    migrated["version"] = 4
    return migrate_config(migrated)


def run_identity(config: RunConfig) -> dict[str, Any]:
    """What a run's results depend on: the config less its operational settings.

    `--resume` may change the operational ones (concurrency, timeouts, retries, the cache
    file, threads) and how the summary's intervals are computed (`uncertainty`); anything
    else must match the stored run, the plugins included (they define what the suite, mode
    and scorer names mean).
    """
    identity = config.model_dump(
        mode="json", exclude={"resume", "concurrency", "out", "cache", "uncertainty"}
    )
    for section in ("assistant_model", "user_model"):
        identity[section] = {
            k: v for k, v in identity[section].items() if k not in OPERATIONAL and v is not None
        }
    identity["play"] = {k: v for k, v in identity["play"].items() if v is not None}
    identity["scoring"] = config.scoring.changed()
    if not identity["scoring"]:  # runs stored before scoring had settings match the defaults
        del identity["scoring"]
    return identity


def problem_text(error: ErrorDetails) -> str:
    """One pydantic problem of a setting as a reason a person reads (`... (got VALUE)`)."""
    context = error.get("ctx") or {}
    if error["type"] == "run_option":
        return str(context["reason"])
    if error["type"] == "value_error":
        return str(context.get("error", error["msg"]))
    return f"{error['msg'][:1].lower()}{error['msg'][1:]} (got {error.get('input')!r})"


def resolve_settings(config: RunConfig, catalog: Catalog) -> RunConfig:
    """`config` with its components' settings checked and every registered one filled in.

    Each given setting is validated by the model of the mode or scorer that declares it
    (`Catalog.play_settings`, `scoring_settings`); then every field of every registered model
    is filled in (None or the model's default where not given), so the stored configuration
    records each component's parameters.

    Raises:
        OptionError: a given setting that no component of `catalog` declares.
        SettingError: a value its component refuses (naming the option and the reason).
    """
    play = _resolved(config.play, catalog.play_settings)
    scoring = _resolved(config.scoring, catalog.scoring_settings)
    return config.model_copy(update={"play": play, "scoring": scoring})


B = TypeVar("B", bound=SettingsBag)


def _resolved(bag: B, models: Mapping[str, type[Settings]]) -> B:
    given = bag.components()
    unknown = sorted(set(given) - set(models))
    if unknown:
        known = sorted([*type(bag).model_fields, *models])
        raise OptionError(f"unknown option {unknown[0]!r}; known options: {', '.join(known)}")
    filled: dict[str, Any] = {}
    for model in dict.fromkeys(models.values()):
        own = {name: given[name] for name in model.model_fields if name in given}
        try:
            filled.update(model.model_validate(own).model_dump(mode="json"))
        except ValidationError as exc:
            first = exc.errors()[0]
            raise SettingError(str(first["loc"][0]), problem_text(first)) from exc
    core = bag.model_dump(mode="json", include=set(type(bag).model_fields))
    return type(bag).model_validate({**core, **filled})
