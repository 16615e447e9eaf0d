"""OpenAI-compatible endpoints (hosted APIs, vLLM, llama.cpp server, Ollama) over HTTP.

One POST to `{base_url}/chat/completions` per attempt, with `httpx` so every failure mode is in
our hands: status codes, `Retry-After`, timeouts, resets and unparseable bodies are classified
here (see `_retry`) instead of inside an SDK's own retry loop. The key is read from the
environment variable named by `api_key_env` and only ever placed in the `Authorization` header;
when the variable is unset no header is sent (local servers need none).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import ssl
from dataclasses import dataclass
from typing import Any

import httpx

from toolplay.clients._client import ChatClient
from toolplay.clients._retry import PermanentError, TransientError
from toolplay.clients._settings import ModelSettings, RoleOptionError

logger = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 425, 429}) | frozenset(range(500, 600))
"""Statuses worth another attempt: timeouts, conflicts, rate limits, server errors."""


def retry_after_seconds(value: str | None) -> float | None:
    """`Retry-After` in seconds when given as a number (HTTP dates fall back to backoff)."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


SHARD_CONNECTIONS = 8
"""Connections per httpx pool (see `HttpChatBackend._shard`)."""


@dataclass
class _Shard:
    client: httpx.AsyncClient
    busy: int = 0


class HttpChatBackend:
    """Makes one chat-completions attempt against an OpenAI-compatible server."""

    def __init__(
        self, base_url: str, api_key: str | None, *, timeout: float, connections: int = 100
    ) -> None:
        self.endpoint = base_url.rstrip("/")
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._secret = api_key or None
        self._timeout = timeout
        self._max_shards = max(1, -(-connections // SHARD_CONNECTIONS))
        self._shards: list[_Shard] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tls: ssl.SSLContext | None = None

    def _shard(self) -> _Shard:
        # httpx pools scan all their connections on every request, which costs more than the
        # request itself at dozens of connections; several small pools, least busy first, keep
        # that scan short. Pools are bound to their event loop, so a new loop gets new pools.
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop, self._shards = loop, []
        best = min(self._shards, key=lambda shard: shard.busy, default=None)
        if best is None or (
            best.busy >= SHARD_CONNECTIONS and len(self._shards) < self._max_shards
        ):
            if self._tls is None:  # loading CA certificates costs ~40 ms: once per backend
                self._tls = httpx.create_ssl_context()  # httpx defaults: certifi, SSL_CERT_*
            best = _Shard(
                httpx.AsyncClient(
                    timeout=httpx.Timeout(self._timeout),
                    headers=self._headers,
                    verify=self._tls,
                    limits=httpx.Limits(
                        max_connections=SHARD_CONNECTIONS,
                        max_keepalive_connections=SHARD_CONNECTIONS,
                    ),
                )
            )
            self._shards.append(best)
        return best

    async def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        """POST `request`; classify every failure as transient or permanent."""
        url = f"{self.endpoint}/chat/completions"
        shard = self._shard()
        shard.busy += 1
        try:
            # httpx's timeout bounds each read, so a body trickling in would outlive it: the
            # whole attempt (connect, send, every read) gets one deadline as well.
            async with asyncio.timeout(self._timeout):
                response = await shard.client.post(url, json=request)
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise TransientError(
                f"no answer within {self._timeout:g}s ({type(exc).__name__})"
            ) from exc
        except httpx.TransportError as exc:
            detail = str(exc) or "closed without an answer"
            raise TransientError(f"connection failed: {type(exc).__name__}: {detail}") from exc
        except httpx.HTTPError as exc:  # undecodable body, redirect loop: the server's fault
            raise TransientError(f"bad response: {type(exc).__name__}: {exc}") from exc
        finally:
            shard.busy -= 1
        status = response.status_code
        if status != 200:
            detail = f"HTTP {status}: {self._quote(response.text, 300)}"
            if status in RETRYABLE_STATUS:
                raise TransientError(
                    detail, retry_after=retry_after_seconds(response.headers.get("retry-after"))
                )
            raise PermanentError(detail)
        try:
            body = json.loads(response.content)
        except ValueError as exc:
            raise TransientError(f"malformed JSON body: {self._quote(response.text)}") from exc
        if not isinstance(body, dict):
            raise TransientError(
                f"malformed JSON body: not an object: {self._quote(response.text)}"
            )
        return body

    def _quote(self, text: str, limit: int = 200) -> str:
        """The start of a response body for an error message, with the API key blanked out.

        Error messages end up in the run store and summary; a server (or proxy) that echoes
        the request's credentials back in an error page must not put the key there.
        """
        if self._secret:
            text = text.replace(self._secret, "[api key]")
        return repr(text[:limit])

    async def aclose(self) -> None:
        """Close the connection pool."""
        if self._loop is asyncio.get_running_loop():
            for shard in self._shards:
                await shard.client.aclose()
        self._shards = []


def endpoint_description(model: str, settings: ModelSettings) -> dict[str, Any]:
    """What is recorded about an endpoint-backed role (never the key)."""
    return {
        "kind": "openai",
        "model": model,
        "base_url": settings.base_url,
        "api_key_env": settings.api_key_env,
        **settings.sampling(),
    }


def is_private_endpoint(base_url: str) -> bool:
    """Whether `base_url` is on this machine or a private network (where keys are optional)."""
    host = (httpx.URL(base_url).host or "").strip("[]").lower()
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal", ".lan")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." not in host  # a bare host name (`vllm`, a container's name) is private
    return address.is_private or address.is_loopback or address.is_link_local


def endpoint_client(settings: ModelSettings, what: str) -> ChatClient:
    """A cached, retrying client for the endpoint at `settings.base_url`.

    Raises:
        RoleOptionError: The key variable is unset and the endpoint is remote (a public host):
            every call would be refused, so the run is refused before the first one. A remote
            server that needs no key takes the variable set to any value.
    """
    key = settings.api_key()
    if key is None and not is_private_endpoint(settings.base_url):
        raise RoleOptionError(
            f"{settings.api_key_env} is not set, and {settings.base_url} is a remote endpoint "
            f"that needs a key: export {settings.api_key_env}=... or name the variable that "
            "holds it with --api-key-env (for a server that needs no key, set the variable to "
            "any value)"
        )
    if key is None:
        logger.info("%s is not set; calling %s without a key", settings.api_key_env, what)
    backend = HttpChatBackend(
        settings.base_url, key, timeout=settings.timeout, connections=settings.connections
    )
    return ChatClient(
        backend, policy=settings.policy, cache=settings.cache, what=f"{what} at {settings.base_url}"
    )
