"""Roles: assistants under test and users, behind one small async protocol."""

from toolplay.roles._autode_replay import AutodeResultsReplay
from toolplay.roles._base import (
    Assistant,
    AssistantError,
    AssistantTurn,
    InfrastructureError,
    RoleContext,
    User,
    UserTurn,
)
from toolplay.roles._cache import ResponseCache, request_key
from toolplay.roles._chat import ChatAssistant, openai_messages
from toolplay.roles._client import ChatBackend, ChatClient, ChatReply, parse_completion
from toolplay.roles._factory import ASSISTANTS, USERS, RoleSpecError, build_assistant, build_user
from toolplay.roles._local import LocalChatBackend, load_model, packaged_model_path
from toolplay.roles._model_user import END_CONVERSATION_TOOL, ModelUser
from toolplay.roles._openai import HttpChatBackend
from toolplay.roles._oracle import OracleAssistant, SilentAssistant
from toolplay.roles._python import PythonAssistant
from toolplay.roles._replay import ReplayAssistant
from toolplay.roles._retry import PermanentError, RetryPolicy, TransientError
from toolplay.roles._scope import current_trial, trial_scope
from toolplay.roles._scripted import ScriptedUser
from toolplay.roles._settings import CACHE_OPTION, ModelSettings, RoleOptionError

__all__ = [
    "AutodeResultsReplay",
    "ReplayAssistant",
    "ASSISTANTS",
    "CACHE_OPTION",
    "END_CONVERSATION_TOOL",
    "USERS",
    "Assistant",
    "AssistantError",
    "AssistantTurn",
    "ChatAssistant",
    "ChatBackend",
    "ChatClient",
    "ChatReply",
    "HttpChatBackend",
    "InfrastructureError",
    "LocalChatBackend",
    "ModelSettings",
    "ModelUser",
    "OracleAssistant",
    "PermanentError",
    "PythonAssistant",
    "ResponseCache",
    "RetryPolicy",
    "RoleContext",
    "RoleOptionError",
    "RoleSpecError",
    "ScriptedUser",
    "SilentAssistant",
    "TransientError",
    "User",
    "UserTurn",
    "build_assistant",
    "build_user",
    "current_trial",
    "load_model",
    "openai_messages",
    "packaged_model_path",
    "parse_completion",
    "request_key",
    "trial_scope",
]
