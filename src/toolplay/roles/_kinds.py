"""The built-in kinds of assistant and user, as the catalog registers them.

A plugin adds its own kinds the same way (`Catalog.add_assistant` / `add_user`), with a
factory that takes a `RoleRequest`.
"""

from __future__ import annotations

from toolplay.roles._base import RoleKind
from toolplay.roles._model_roles import (
    build_local_assistant,
    build_local_user,
    build_openai_assistant,
    build_openai_user,
)
from toolplay.roles._oracle import OracleAssistant, SilentAssistant
from toolplay.roles._python import build_python_assistant
from toolplay.roles._scripted import ScriptedUser


def builtin_assistant_kinds() -> list[RoleKind]:
    """Every built-in kind of assistant."""
    return [
        RoleKind(
            "oracle",
            lambda request: OracleAssistant(),
            "Plays the scenario's reference solution: the ceiling every scenario must reach.",
        ),
        RoleKind(
            "no-call",
            lambda request: SilentAssistant(),
            "Answers in text and never calls a tool: the floor.",
        ),
        RoleKind(
            "openai",
            build_openai_assistant,
            "A model at an OpenAI-compatible endpoint (--base-url, key in --api-key-env).",
            "openai:MODEL",
        ),
        RoleKind(
            "local",
            build_local_assistant,
            "A GGUF model run by llama.cpp on this machine (default: packaged SmolLM2-135M).",
            "local[:PATH.gguf]",
        ),
        RoleKind(
            "python",
            build_python_assistant,
            "Your own Python function (your agent stack).",
            "python:MODULE:FUNCTION",
        ),
    ]


def builtin_user_kinds() -> list[RoleKind]:
    """Every built-in kind of user."""
    return [
        RoleKind(
            "scripted",
            lambda request: ScriptedUser(),
            "Says the scenario's script in order, then ends (deterministic).",
        ),
        RoleKind(
            "openai",
            build_openai_user,
            "A user simulated by a model at an OpenAI-compatible endpoint.",
            "openai:MODEL",
        ),
        RoleKind(
            "local",
            build_local_user,
            "A user simulated by a local GGUF model.",
            "local[:PATH.gguf]",
        ),
    ]
