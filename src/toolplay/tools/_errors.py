"""Errors a tool raises on purpose: they go back to the assistant as the tool result.

Any other exception escaping a tool is a harness bug; the runtime records it as an
infrastructure error and never shows it to the assistant.
"""


class ToolError(Exception):
    """A refusal the assistant should read: say what was wrong and what is allowed."""


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
