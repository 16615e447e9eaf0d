"""Errors about scenario files and suites, always naming the file, the field and the reason."""

from __future__ import annotations

from toolplay.errors import InputError


class ScenarioError(InputError):
    """A scenario file or suite cannot be used."""

    def __init__(self, source: str, field: str | None, reason: str) -> None:
        self.source = source
        self.field = field
        self.reason = reason
        where = f"{source}: field {field!r}" if field else source
        super().__init__(f"{where}: {reason}")
