"""Roles: assistants under test and users, behind one small async protocol."""

from toolplay.roles._base import (
    Assistant,
    AssistantError,
    AssistantTurn,
    InfrastructureError,
    RoleContext,
    User,
    UserTurn,
)
from toolplay.roles._factory import ASSISTANTS, USERS, RoleSpecError, build_assistant, build_user
from toolplay.roles._oracle import OracleAssistant, SilentAssistant
from toolplay.roles._scripted import ScriptedUser

__all__ = [
    "ASSISTANTS",
    "USERS",
    "Assistant",
    "AssistantError",
    "AssistantTurn",
    "InfrastructureError",
    "OracleAssistant",
    "RoleContext",
    "RoleSpecError",
    "ScriptedUser",
    "SilentAssistant",
    "User",
    "UserTurn",
    "build_assistant",
    "build_user",
]
