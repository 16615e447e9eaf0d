"""Roles played by a chat model: `openai:MODEL` at an endpoint, `local[:PATH.gguf]` on this machine.

Each kind builds the same two roles, an assistant under test (`ChatAssistant`) or a simulated
user (`ModelUser`), over a client from `toolplay.clients`; only where the model runs differs.
"""

from __future__ import annotations

from typing import TypeVar

from toolplay.clients import (
    ModelSettings,
    RoleOptionError,
    endpoint_client,
    endpoint_description,
    local_client,
    local_description,
    model_path,
)
from toolplay.roles._base import Assistant, RoleRequest, User
from toolplay.roles._chat import ChatAssistant, ChatModelRole
from toolplay.roles._model_user import ModelUser
from toolplay.roles._presentation import Presentation

R = TypeVar("R", bound=ChatModelRole)


def _settings(request: RoleRequest) -> tuple[Presentation, ModelSettings]:
    """The role's presentation and its settings, the presentation's defaults filled in."""
    presentation = request.presentation or Presentation()
    resolved = request.model.resolve(cache=request.cache, concurrency=request.concurrency)
    return presentation, presentation.settings(resolved)


def _endpoint_role(request: RoleRequest, role: type[R], what: str) -> R:
    if not request.argument:
        raise RoleOptionError("openai needs a model name, e.g. openai:gpt-4o-mini")
    model = request.argument
    presentation, settings = _settings(request)
    name = f"openai:{model}"
    client = endpoint_client(settings, f"{what}{name}")
    description = endpoint_description(model, settings)
    return role(name, model, client, settings, description, presentation)


def _local_role(request: RoleRequest, role: type[R]) -> R:
    path = model_path(request.argument)
    presentation, settings = _settings(request)
    name = f"local:{request.argument}" if request.argument else "local"
    description = local_description(request.argument, path, settings)
    client = local_client(path, settings)
    return role(name, path.name, client, settings, description, presentation)


def build_openai_assistant(request: RoleRequest) -> Assistant:
    """`openai:MODEL`: the assistant is `MODEL` at the endpoint of the model options."""
    return _endpoint_role(request, ChatAssistant, "")


def build_openai_user(request: RoleRequest) -> User:
    """`openai:MODEL` as the user: a simulator at the user's endpoint (else the assistant's)."""
    return _endpoint_role(request, ModelUser, "user ")


def build_local_assistant(request: RoleRequest) -> Assistant:
    """`local` (the packaged SmolLM2) or `local:PATH.gguf`."""
    return _local_role(request, ChatAssistant)


def build_local_user(request: RoleRequest) -> User:
    """`local` or `local:PATH.gguf` as a simulated user."""
    return _local_role(request, ModelUser)
