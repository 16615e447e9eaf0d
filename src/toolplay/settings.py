"""Settings a component declares: typed knobs of a mode of play or a scorer, open to plugins.

A mode or a scorer with knobs declares them as a `Settings` model (frozen; unknown fields
refused) on its catalog entry (`Mode.settings`, `Scorer.settings`). The run's configuration
keeps them flat, by field name, beside the core's own: a mode's fields in `play`
(`PlaySettings`), a scorer's in `scoring` (`ScoringSettings`); both are `SettingsBag`s, whose
extra fields are the components' (`--option NAME=VALUE` reaches each by its name, which is
unique in a catalog: registering a clashing field is refused). The run plan checks every
given value against the model that declares it before anything is loaded, and `config.json`
records every field of every registered model, so the stored configuration says with what
parameters each component ran. A component reads its own settings typed, with its defaults
where the run gave none: `request.settings.of(MySettings)`, `context.settings.of(...)`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = ["Settings", "SettingsBag"]

S = TypeVar("S", bound="Settings")


class Settings(BaseModel):
    """A component's settings: typed fields with defaults (None: the component's default)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class SettingsBag(BaseModel):
    """The core's settings of one kind plus the fields the catalog's components declare.

    The extra fields are held as given (the run plan validates them against the declaring
    model); `of(Model)` reads one component's settings typed.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    def of(self, kind: type[S]) -> S:
        """The settings of the component declaring `kind` (its defaults where none given).

        Raises:
            pydantic.ValidationError: a given value is not valid for `kind`.
        """
        extra = self.__pydantic_extra__ or {}
        return kind.model_validate(
            {name: extra[name] for name in kind.model_fields if name in extra}
        )

    def components(self) -> dict[str, Any]:
        """The components' fields as given (the extra fields), by name."""
        return dict(self.__pydantic_extra__ or {})

    def changed(self) -> dict[str, Any]:
        """The settings given (those not None), by name."""
        return self.model_dump(exclude_none=True)
