"""One model call as the roles see it: cache lookup, retries, and a checked reply.

A `ChatBackend` speaks the OpenAI chat-completions format (an HTTP endpoint, or the local
llama.cpp model behind the same shape) and makes exactly one attempt. `ChatClient` adds the
response cache and the retry policy, and checks the response's shape: a body without a usable
`choices[0].message` is a transient fault (retried), while odd *content* (malformed tool-call
arguments, unknown tool names) is kept verbatim for the environment to report to the model.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from toolplay.clients._cache import ResponseCache, request_key
from toolplay.clients._retry import RetryPolicy, TransientError, call_with_retries
from toolplay.messages import ModelExchange, ToolCall, Usage

logger = logging.getLogger(__name__)


class ChatBackend(Protocol):
    """Makes one chat-completion attempt in the OpenAI format."""

    endpoint: str
    """Identity of what answers (base URL or model file): part of the cache key."""

    async def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send `request`; return the response body, or raise Transient/PermanentError."""
        ...

    async def aclose(self) -> None:
        """Release connections or models."""
        ...


@dataclass(frozen=True)
class ChatReply:
    """The parts of a completion the roles use."""

    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    exchange: ModelExchange | None = None
    """The request and the response behind the reply (see `exchange_of`)."""


LOCAL_PROMPT = "rendered_prompt"
LOCAL_OUTPUT = "raw_output"
"""Keys a local backend adds to its response body: the exact prompt text and the raw output."""

VOLATILE_KEYS = ("id", "created", "system_fingerprint")
"""Response fields an endpoint varies from call to call whatever the reply (a counter, the
clock, the serving build): not recorded, so the same replies give byte-identical trajectory
files (a resumed run equals an uninterrupted one)."""


def exchange_of(request: dict[str, Any], body: Any, *, cached: bool) -> ModelExchange:
    """The record of one call: the request (it never holds the key, which travels only in a
    header), the response body, and a local model's prompt text and raw output.
    """
    response = dict(body) if isinstance(body, Mapping) else {"body": body}
    prompt, output = response.pop(LOCAL_PROMPT, None), response.pop(LOCAL_OUTPUT, None)
    for key in VOLATILE_KEYS:
        response.pop(key, None)
    return ModelExchange(
        request=request,
        response=response,
        prompt=prompt if isinstance(prompt, str) else None,
        output=output if isinstance(output, str) else None,
        cached=cached,
    )


def parse_completion(response: Any, first_call_number: int = 0) -> ChatReply:
    """Read `choices[0].message` and `usage` from an OpenAI-format response body.

    A legacy `function_call` (the `functions` wire format, `_wire`) is read as one tool call.
    Tool-call arguments are kept as the raw text the model produced (an object given instead of
    a string is serialised). A call without an id, or repeating an id of the same message, gets
    `call_<n>` with `n` counted from `first_call_number`, so ids stay unique and deterministic.

    Raises:
        TransientError: The body has no usable message (the server misbehaved; retry).
    """
    if not isinstance(response, Mapping):
        raise TransientError(f"malformed response: expected a JSON object, got {response!r:.200}")
    choices = response.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        raise TransientError(f"malformed response: no choices in {json.dumps(response)[:200]}")
    message = choices[0].get("message")
    if not isinstance(message, Mapping):
        raise TransientError("malformed response: choices[0] has no message")
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise TransientError("malformed response: tool_calls is not a list")
    legacy = message.get("function_call")
    if not raw_calls and isinstance(legacy, Mapping):  # the legacy functions format: one call
        raw_calls = [{"function": legacy}]
    calls: list[ToolCall] = []
    seen: set[str] = set()
    for position, raw in enumerate(raw_calls):
        if not isinstance(raw, Mapping):
            raise TransientError(f"malformed response: tool call {position} is not an object")
        function = raw.get("function")
        function = function if isinstance(function, Mapping) else {}
        call_id = raw.get("id")
        if not isinstance(call_id, str) or not call_id or call_id in seen:
            call_id = f"call_{first_call_number + position}"
        seen.add(call_id)
        arguments = function.get("arguments")
        if arguments is None:
            text = ""
        elif isinstance(arguments, str):
            text = arguments
        else:
            text = json.dumps(arguments, ensure_ascii=False)
        calls.append(ToolCall(id=call_id, name=str(function.get("name") or ""), arguments=text))
    return ChatReply(
        content=_content_text(message.get("content")),
        tool_calls=tuple(calls),
        usage=_usage(response.get("usage")),
    )


def _content_text(content: Any) -> str | None:
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: keep the text ones
        parts = [p.get("text", "") for p in content if isinstance(p, Mapping)]
        return "".join(str(p) for p in parts)
    return str(content)


def _usage(usage: Any) -> Usage:
    if not isinstance(usage, Mapping):
        return Usage(calls=1)

    def count(name: str) -> int:
        value = usage.get(name)
        return value if isinstance(value, int) and value >= 0 else 0

    return Usage(
        prompt_tokens=count("prompt_tokens"), completion_tokens=count("completion_tokens"), calls=1
    )


class ChatClient:
    """A backend with the response cache and the retry policy in front of it."""

    def __init__(
        self,
        backend: ChatBackend,
        *,
        policy: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        what: str = "model",
    ) -> None:
        self.backend = backend
        self.policy = policy or RetryPolicy()
        self.cache = cache
        self.what = what

    async def complete(
        self, request: dict[str, Any], first_call_number: int = 0, *, trial: int = 0
    ) -> ChatReply:
        """The reply to `request`, from the cache or the backend.

        `trial` keys the cache, so K trials of a scenario are K samples, not one answer
        served K times.

        Raises:
            InfrastructureError: The backend failed after the retries.
        """
        key = ""
        if self.cache is not None:
            key = request_key(self.backend.endpoint, request, trial)
            cached = self.cache.get(key)
            if cached is not None:
                try:
                    stored = json.loads(cached)
                    reply = parse_completion(stored, first_call_number)
                except (ValueError, TransientError):
                    logger.warning("%s: ignoring an unreadable cache entry", self.what)
                else:
                    return replace(reply, exchange=exchange_of(request, stored, cached=True))

        async def attempt() -> tuple[dict[str, Any], ChatReply]:
            body = await self.backend.complete(request)
            return body, parse_completion(body, first_call_number)

        body, reply = await call_with_retries(self.policy, attempt, self.what)
        if self.cache is not None:
            self.cache.put(key, json.dumps(body, sort_keys=True, ensure_ascii=False))
        return replace(reply, exchange=exchange_of(request, body, cached=False))

    async def aclose(self) -> None:
        """Close the backend."""
        await self.backend.aclose()
