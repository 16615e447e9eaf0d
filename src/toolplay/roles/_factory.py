"""Build roles from command-line specs such as `oracle` or `scripted`.

More kinds register themselves in `ASSISTANTS` / `USERS`: a spec `kind:argument` calls the
factory registered for `kind` with `argument` (empty when absent) and the run options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolplay.roles._base import Assistant, User
from toolplay.roles._local import build_local_assistant, build_local_user
from toolplay.roles._openai import build_openai_assistant, build_openai_user
from toolplay.roles._oracle import OracleAssistant, SilentAssistant
from toolplay.roles._python import build_python_assistant
from toolplay.roles._replay import build_replay_assistant
from toolplay.roles._scripted import ScriptedUser

AssistantFactory = Callable[[str, dict[str, Any]], Assistant]
UserFactory = Callable[[str, dict[str, Any]], User]


class RoleSpecError(ValueError):
    """A role spec names no known kind of role."""


ASSISTANTS: dict[str, AssistantFactory] = {
    "oracle": lambda argument, options: OracleAssistant(),
    "no-call": lambda argument, options: SilentAssistant(),
    "openai": build_openai_assistant,
    "local": build_local_assistant,
    "python": build_python_assistant,
    "replay": build_replay_assistant,
}
USERS: dict[str, UserFactory] = {
    "scripted": lambda argument, options: ScriptedUser(),
    "openai": build_openai_user,
    "local": build_local_user,
}


def build_assistant(spec: str, options: dict[str, Any] | None = None) -> Assistant:
    """The assistant for `spec` (e.g. `oracle`)."""
    kind, _, argument = spec.partition(":")
    if kind not in ASSISTANTS:
        raise RoleSpecError(f"unknown assistant {spec!r}; known kinds: {', '.join(ASSISTANTS)}")
    return ASSISTANTS[kind](argument, options or {})


def build_user(spec: str, options: dict[str, Any] | None = None) -> User:
    """The user for `spec` (e.g. `scripted`)."""
    kind, _, argument = spec.partition(":")
    if kind not in USERS:
        raise RoleSpecError(f"unknown user {spec!r}; known kinds: {', '.join(USERS)}")
    return USERS[kind](argument, options or {})
