"""Errors a tool raises on purpose: they go back to the assistant as the tool result.

Any other exception escaping a tool is a harness bug; the runtime records it as an
infrastructure error and never shows it to the assistant.

Besides its message (toolplay's own words), an error may name the condition it reports with a
`code` and the values that vary (`fields`): a presentation that words errors its own way (a
method's reference presentation showing the reference's texts, which are that method's data)
renders the error from them. Code `EXCEPTION` carries, in `fields["line"]`, the line a Python
traceback ends with for an exception a library raised (`<type>: <message>`, see
`exception_line`): libraries word those, so every presentation may show them as they are.
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from typing import Self

EXCEPTION = "exception"
"""The code of an error that is a library's exception, its traceback's last line in `line`."""


def exception_line(exc: BaseException) -> str:
    """The last line of `exc`'s traceback: `<type>: <message>`, the type module-qualified
    unless it is a builtin, only the last line of a message that spans several.
    """
    text = "".join(traceback.format_exception_only(type(exc), exc)).rstrip("\n")
    return text.rsplit("\n", 1)[-1]


class ToolError(Exception):
    """A refusal the assistant should read: say what was wrong and what is allowed.

    Args:
        message: What toolplay's presentation shows.
        code: The condition, for presentations with their own texts (module docstring).
        fields: The values a presentation's text for `code` fills in.
    """

    def __init__(
        self, message: str, *, code: str | None = None, fields: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.fields = dict(fields or {})

    @classmethod
    def of(cls, message: str, exc: BaseException) -> Self:
        """The error reporting a library's exception `exc` (code `EXCEPTION`)."""
        return cls(message, code=EXCEPTION, fields={"line": exception_line(exc)})


class NotFoundError(ToolError):
    """The referenced entity (contact, reminder, event, ...) does not exist."""


class PreconditionError(ToolError):
    """The world is not in a state that allows the call (e.g. cellular off)."""


class InvalidArgumentError(ToolError):
    """An argument is well-typed but not acceptable (bad phone number, unknown currency)."""


class AuthenticationError(ToolError):
    """The call needs a logged-in session or valid credentials."""


class RegistryError(Exception):
    """A tool definition is unusable (missing description, untyped parameter, bad table)."""
