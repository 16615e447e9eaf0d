"""Roles: assistants under test and users, behind one small async protocol.

Model clients (endpoints, llama.cpp) live in `toolplay.clients`; this package holds the roles
built on them, the harness's own roles (oracle, no-call, scripted user, replay, python), and the
`Presentation`: what a model-backed role sends its model and how it reads the answer.
"""

from toolplay.faults import AssistantError, InfrastructureError
from toolplay.roles._base import (
    Assistant,
    AssistantContext,
    AssistantTurn,
    ReferenceView,
    ReplayFormat,
    RoleKind,
    RoleRequest,
    RoleSpecError,
    User,
    UserContext,
    UserTurn,
    sees_reference,
)
from toolplay.roles._chat import (
    ChatAssistant,
    ChatModelRole,
    calls_so_far,
    chat_request,
    openai_messages,
)
from toolplay.roles._kinds import builtin_assistant_kinds, builtin_user_kinds
from toolplay.roles._model_user import END_CONVERSATION_TOOL, ModelUser, user_system_prompt
from toolplay.roles._oracle import OracleAssistant, SilentAssistant
from toolplay.roles._presentation import (
    Presentation,
    tool_result_content,
    toolplay_presentation,
    with_context,
)
from toolplay.roles._python import PythonAssistant
from toolplay.roles._recording import RECORDED_MODE, Recording, RecordingError
from toolplay.roles._scripted import ScriptedUser
from toolplay.roles._texts import PromptTexts, prompt_texts_of
from toolplay.roles._user_briefing import simulator_messages

__all__ = [
    "END_CONVERSATION_TOOL",
    "Presentation",
    "PromptTexts",
    "prompt_texts_of",
    "tool_result_content",
    "toolplay_presentation",
    "with_context",
    "RECORDED_MODE",
    "Recording",
    "RecordingError",
    "Assistant",
    "AssistantContext",
    "AssistantError",
    "AssistantTurn",
    "ChatAssistant",
    "ChatModelRole",
    "InfrastructureError",
    "ModelUser",
    "OracleAssistant",
    "PythonAssistant",
    "ReferenceView",
    "ReplayFormat",
    "RoleKind",
    "RoleRequest",
    "RoleSpecError",
    "ScriptedUser",
    "SilentAssistant",
    "User",
    "UserContext",
    "UserTurn",
    "builtin_assistant_kinds",
    "builtin_user_kinds",
    "calls_so_far",
    "chat_request",
    "openai_messages",
    "sees_reference",
    "simulator_messages",
    "user_system_prompt",
]
