"""Proxy variables and netrc credentials reach the endpoint client (read once per session).

aiohttp's `trust_env=True` looked both up in a worker thread on every request; the client now
applies aiohttp's same rules once, when its session starts. These tests pin what a user sees:
a proxy from the environment carries the requests, `NO_PROXY` bypasses it, and a `.netrc`
entry for the endpoint's host is sent as basic authentication.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toolplay.clients import PermanentError
from toolplay.clients._http import HttpChatBackend
from toolplay.testing import ChatServer, scripted, text

REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
PROXY_VARIABLES = ["http_proxy", "https_proxy", "all_proxy", "ws_proxy", "wss_proxy", "no_proxy"]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setenv("NETRC", str(tmp_path / "no-netrc"))


@pytest.fixture()
def endpoint() -> Iterator[ChatServer]:
    with ChatServer(scripted([text("hello")])) as server:
        yield server


def complete(base_url: str, key: str | None = None) -> dict[str, Any]:
    async def once() -> dict[str, Any]:
        backend = HttpChatBackend(base_url, key, timeout=5)
        try:
            return await backend.complete(REQUEST)
        finally:
            await backend.aclose()

    return asyncio.run(once())


def test_a_proxy_from_the_environment_carries_the_requests(
    endpoint: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The "proxy" is a second test server: asked for an absolute URL, it answers 404 naming it,
    # which only a request sent through a proxy carries.
    with ChatServer(scripted([text("from the proxy")])) as proxy:
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.port}")
        with pytest.raises(PermanentError, match=f"no route http://127.0.0.1:{endpoint.port}/v1"):
            complete(endpoint.base_url)
        assert endpoint.requests == []
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        assert complete(endpoint.base_url)["choices"][0]["message"]["content"] == "hello"
        assert len(endpoint.requests) == 1


def test_netrc_credentials_for_the_host_are_sent(
    endpoint: ChatServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    complete(endpoint.base_url)
    assert endpoint.requests[-1].authorization is None
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login someone password secret\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    complete(endpoint.base_url)
    expected = base64.b64encode(b"someone:secret").decode()
    assert endpoint.requests[-1].authorization == f"Basic {expected}"
    complete(endpoint.base_url, key="sk-1")  # a key set for the endpoint wins over netrc
    assert endpoint.requests[-1].authorization == "Bearer sk-1"
