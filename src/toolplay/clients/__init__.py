"""Model clients: how toolplay talks to a chat model, apart from any role it plays.

An OpenAI-compatible HTTP endpoint (`HttpChatBackend`) or a local GGUF model run by llama.cpp
(`LocalChatBackend`) sits behind one `ChatBackend` protocol; `ChatClient` puts the response
cache and the retry policy in front of it. `ModelOptions` are the typed, user-facing options of
one model; `ModelSettings` their resolved form. Roles (`toolplay.roles`) build on these.
"""

from toolplay.clients._cache import ResponseCache, request_key
from toolplay.clients._client import ChatBackend, ChatClient, ChatReply, parse_completion
from toolplay.clients._http import HttpChatBackend, endpoint_client, endpoint_description
from toolplay.clients._llama import (
    LocalChatBackend,
    LocalModel,
    load_model,
    local_client,
    local_description,
    model_path,
    packaged_model_path,
)
from toolplay.clients._retry import PermanentError, RetryPolicy, TransientError
from toolplay.clients._settings import (
    OPERATIONAL,
    ModelOptions,
    ModelSettings,
    RoleOptionError,
)
from toolplay.clients._wire import Wire, WireError, on_wire, to_functions, to_tools

__all__ = [
    "OPERATIONAL",
    "ChatBackend",
    "ChatClient",
    "ChatReply",
    "HttpChatBackend",
    "LocalChatBackend",
    "LocalModel",
    "ModelOptions",
    "ModelSettings",
    "PermanentError",
    "ResponseCache",
    "RetryPolicy",
    "RoleOptionError",
    "TransientError",
    "Wire",
    "WireError",
    "endpoint_client",
    "endpoint_description",
    "load_model",
    "local_client",
    "local_description",
    "model_path",
    "on_wire",
    "to_functions",
    "to_tools",
    "packaged_model_path",
    "parse_completion",
    "request_key",
]
