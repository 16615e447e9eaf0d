"""OpenAI-compatible endpoints (hosted APIs, vLLM, llama.cpp server, Ollama) over HTTP.

One POST to `{base_url}/chat/completions` per attempt, with `aiohttp` so every failure mode is in
our hands: status codes, `Retry-After`, timeouts, resets and unparseable bodies are classified
here (see `_retry`) instead of inside an SDK's own retry loop. The key is read from the
environment variable named by `api_key_env` and only ever placed in the `Authorization` header;
when the variable is unset no header is sent (local servers need none), unless `~/.netrc` has
the host.

Why aiohttp and not httpx: at dozens of conversations in flight the client's own CPU per call
decides how close a 2-core machine gets to the endpoint's ideal throughput; httpx spent about
1.5 ms per call (its pool scans every connection, anyio wraps every socket operation), aiohttp
about a fifth of that (measured by `bench/bench_call_cpu.py`). Proxies from the environment
(`HTTPS_PROXY`...) and `~/.netrc` credentials are honoured and certificates are checked against
certifi's bundle, as httpx did. The environment is read once per session (`_from_environment`,
aiohttp's own rules applied to the endpoint's URL), not on every request: aiohttp's
`trust_env=True` does both look-ups in a worker thread per request, which cost about as much
CPU as the request itself and made the event loop wait on the thread pool's lock.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import ssl
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from toolplay.clients._body import RequestBodies
from toolplay.clients._client import ChatClient
from toolplay.clients._retry import PermanentError, TransientError
from toolplay.clients._settings import ModelSettings, RoleOptionError

if TYPE_CHECKING:
    import aiohttp

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


def _tls_context() -> ssl.SSLContext:
    """Certificates from certifi when installed (as httpx did), else the system's."""
    try:
        import certifi
    except ImportError:  # pragma: no cover - certifi comes with the dependencies
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


def _from_environment(url: str, *, netrc: bool) -> dict[str, Any]:
    """The request options aiohttp's `trust_env=True` would add for `url`: a proxy from the
    environment (`HTTP_PROXY`..., `NO_PROXY` honoured) and, with `netrc`, the credentials of
    `NETRC` or `~/.netrc` for the host, as basic authentication.

    aiohttp's own helpers, called once per session instead of on every request. The netrc
    entry is skipped when an API key is set (`netrc` False): the key goes in the header, where
    aiohttp used to refuse the pair with a `ValueError`.
    """
    from aiohttp import helpers  # noqa: PLC0415 (imported with aiohttp by `_client`)
    from yarl import URL  # noqa: PLC0415 (aiohttp's URL type)

    target = URL(url)
    options: dict[str, Any] = {}
    try:
        proxy, proxy_auth = helpers.get_env_proxy_for_url(target)
    except LookupError:
        pass
    else:
        options["proxy"] = proxy
        if proxy_auth is not None:
            options["proxy_auth"] = proxy_auth
    if netrc and target.host is not None:
        try:
            auth = helpers.basicauth_from_netrc(helpers.netrc_from_env(), target.host)
        except LookupError:
            pass
        else:
            options["headers"] = {"Authorization": auth.encode()}
    return options


def _text(content: bytes) -> str:
    return content.decode("utf-8", errors="replace")


def _one_line(exc: BaseException) -> str:
    """`Type: message` on one line (aiohttp's messages span several)."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


class HttpChatBackend:
    """Makes one chat-completions attempt against an OpenAI-compatible server."""

    def __init__(
        self, base_url: str, api_key: str | None, *, timeout: float, connections: int = 100
    ) -> None:
        self.endpoint = base_url.rstrip("/")
        self._url = f"{self.endpoint}/chat/completions"
        self._headers = {"Content-Type": "application/json"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._secret = api_key or None
        self._timeout = timeout
        self._connections = max(1, connections)
        self._session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tls: ssl.SSLContext | None = None
        self._environment: dict[str, Any] = {}
        self._bodies = RequestBodies(size=max(256, 4 * self._connections))

    def _client(self) -> aiohttp.ClientSession:
        import aiohttp  # noqa: PLC0415 (~0.2 s to import: only a command that calls a model)

        # A session is bound to its event loop, so a new loop gets a new session.
        loop = asyncio.get_running_loop()
        if self._session is None or self._loop is not loop:
            if self._tls is None and self.endpoint.startswith("https:"):
                self._tls = _tls_context()  # loading CA certificates costs ~40 ms: once
            self._loop = loop
            self._environment = _from_environment(self._url, netrc=self._secret is None)
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(
                    limit=self._connections, limit_per_host=0, ssl=self._tls or True
                ),
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=self._timeout),
                headers=self._headers,
                trust_env=False,  # read once, in `_from_environment`
                auto_decompress=True,
            )
        return self._session

    async def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        """POST `request`; classify every failure as transient or permanent."""
        import aiohttp  # noqa: PLC0415 (imported by `_client` already: a dictionary lookup)

        data = self._bodies.encode(request)  # json.dumps(request)'s bytes, tools encoded once
        try:
            # One deadline for the whole attempt (connect, send, every read): a body
            # trickling in piece by piece must not outlive it.
            async with (
                asyncio.timeout(self._timeout),
                self._client().post(self._url, data=data, **self._environment) as response,
            ):
                status = response.status
                content = await response.read()
                retry_after = response.headers.get("retry-after")
        except TimeoutError as exc:
            raise TransientError(
                f"no answer within {self._timeout:g}s ({type(exc).__name__})"
            ) from exc
        except aiohttp.ClientPayloadError as exc:  # undecodable or truncated body
            raise TransientError(f"bad response: {_one_line(exc)}") from exc
        except (aiohttp.ClientConnectionError, OSError) as exc:
            detail = str(exc) or "closed without an answer"
            raise TransientError(f"connection failed: {type(exc).__name__}: {detail}") from exc
        except aiohttp.ClientError as exc:  # malformed status line, redirect loop...
            raise TransientError(f"bad response: {_one_line(exc)}") from exc
        if status != 200:
            detail = f"HTTP {status}: {self._quote(_text(content), 300)}"
            if status in RETRYABLE_STATUS:
                raise TransientError(detail, retry_after=retry_after_seconds(retry_after))
            raise PermanentError(detail)
        try:
            body = json.loads(content)
        except ValueError as exc:
            raise TransientError(f"malformed JSON body: {self._quote(_text(content))}") from exc
        if not isinstance(body, dict):
            raise TransientError(
                f"malformed JSON body: not an object: {self._quote(_text(content))}"
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
        session, self._session = self._session, None
        if session is not None and self._loop is asyncio.get_running_loop():
            await session.close()


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
    host = (urlsplit(base_url).hostname or "").strip("[]").lower()
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
