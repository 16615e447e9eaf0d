"""A small OpenAI-compatible endpoint on 127.0.0.1 for tests, soak tests and benchmarks.

It serves `POST /v1/chat/completions` (and `GET /v1/models`) from a responder, after a fixed
artificial latency, injecting the faults of a `FaultPlan`. Each connection gets its own thread
(HTTP/1.1 keep-alive), so many conversations can wait on the latency at once, and a hanging
request stalls only its own connection. Every request is recorded (body, whether an
`Authorization` header came, the fault injected) for tests to inspect.

    with ChatServer(ReferenceResponder(suite.scenarios), latency=0.05) as server:
        ...  # point a client at server.base_url
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import socket
import struct
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from toolplay.testing._faults import Fault, FaultCounter, FaultPlan
from toolplay.testing._responders import Responder

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received."""

    number: int
    body: Any
    authorization: str | None
    fault: Fault | None
    raw: bytes = b""
    """The body's bytes as received (what byte-for-byte comparisons read)."""


def completion(request: dict[str, Any], message: dict[str, Any], number: int) -> dict[str, Any]:
    """Wrap an assistant message into a chat-completion body with deterministic usage."""
    prompt_chars = len(json.dumps(request.get("messages", [])))
    answer_chars = len(json.dumps(message))
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": 0,
        "model": request.get("model", "test"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", **message},
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_chars // 4,
            "completion_tokens": answer_chars // 4,
            "total_tokens": prompt_chars // 4 + answer_chars // 4,
        },
    }


def break_arguments(message: dict[str, Any]) -> dict[str, Any]:
    """The message with its first tool call's arguments cut mid-JSON (a call is added if none)."""
    calls = [dict(c) for c in message.get("tool_calls") or []]
    if not calls:
        calls = [{"id": "call_broken", "type": "function", "function": {"name": "unknown"}}]
    function = dict(calls[0].get("function") or {})
    function["arguments"] = '{"broken": "unterminated'
    calls[0] = {**calls[0], "function": function}
    return {**message, "tool_calls": calls}


class ChatServer:
    """The test endpoint; use as a context manager or call `start()` / `stop()`.

    Args:
        responder: Builds the answer to each request.
        latency: Seconds every request waits before it is answered (or faulted).
        faults: What to inject; none by default.
        api_key: When set, requests without `Authorization: Bearer <api_key>` get 401.
        port: 0 picks a free port.
    """

    def __init__(
        self,
        responder: Responder,
        *,
        latency: float = 0.0,
        faults: FaultPlan | None = None,
        api_key: str | None = None,
        port: int = 0,
    ) -> None:
        self.responder = responder
        self.latency = latency
        self.plan = faults or FaultPlan()
        self.api_key = api_key
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._counter = FaultCounter(self.plan)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = _Server(("127.0.0.1", port), _handler_for(self))
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (`.../v1`)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> ChatServer:
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; hanging requests are released."""
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> ChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def set_faults(self, plan: FaultPlan) -> None:
        """Switch to another fault plan; request numbering starts again from 0."""
        with self._lock:
            self.plan = plan
            self._counter = FaultCounter(plan)

    def _enter(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def fault_counts(self) -> dict[str, int]:
        """How many requests got each fault (`none` for normal answers)."""
        counts: dict[str, int] = {}
        for request in list(self.requests):
            key = request.fault or "none"
            counts[key] = counts.get(key, 0) + 1
        return dict(sorted(counts.items()))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # many conversations connect at once
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients dropping connections (timeouts, resets) are expected here, not news.
        logger.debug("connection from %s ended with an error", client_address, exc_info=True)


def _handler_for(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body leave in two writes; with Nagle on, the body would wait for the
        # client's delayed ACK (~40 ms) and swamp the configured latency.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            logger.debug("%s " + format, self.address_string(), *args)

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def _send_json(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
            self._send(status, json.dumps(data).encode("utf-8"), headers)

        def do_GET(self) -> None:  # noqa: N802 (http.server naming)
            if self.path.rstrip("/") == "/v1/models":
                self._send_json(
                    200, {"object": "list", "data": [{"id": "test", "object": "model"}]}
                )
            else:
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:  # noqa: N802 (http.server naming)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                return
            try:
                body: Any = json.loads(raw)
            except ValueError:
                body = None
            with server._lock:
                number, fault = server._counter.next(body)
            authorization = self.headers.get("Authorization")
            server._enter(RecordedRequest(number, body, authorization, fault, raw))
            try:
                if server.latency:
                    time.sleep(server.latency)
                if server.api_key is not None and authorization != f"Bearer {server.api_key}":
                    self._send_json(401, {"error": {"message": "invalid API key"}})
                elif not isinstance(body, dict):
                    self._send_json(400, {"error": {"message": "body is not a JSON object"}})
                else:
                    self._answer(body, number, fault)
            finally:
                server._leave()

        def _answer(self, body: dict[str, Any], number: int, fault: Fault | None) -> None:
            plan = server.plan
            if fault == "rate_limit":
                self._send_json(
                    429,
                    {"error": {"message": "rate limited", "type": "rate_limit"}},
                    {"Retry-After": f"{plan.retry_after:g}"},
                )
            elif fault == "server_error":
                self._send_json(500, {"error": {"message": "injected server error"}})
            elif fault == "hang":
                server._stopping.wait(plan.hang_seconds)
                self.close_connection = True
            elif fault == "reset":
                # Linger 0 makes close() send RST; the read file holds a reference to the
                # socket, so it is closed first, and writes after this go nowhere.
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.rfile.close()
                self.connection.close()
                self.wfile = io.BytesIO()
                self.close_connection = True
            elif fault == "malformed_body":
                self._send(200, b'{"choices": [ this is not json')
            elif fault == "bad_encoding":
                self._send(200, b"plainly not gzip", {"Content-Encoding": "gzip"})
            else:
                try:
                    message = server.responder(body)
                except Exception as exc:  # a responder bug must be visible to the test
                    logger.exception("responder failed")
                    self._send_json(500, {"error": {"message": f"responder failed: {exc!r}"}})
                    return
                if fault == "malformed_arguments":
                    message = break_arguments(message)
                payload = json.dumps(completion(body, message, number)).encode("utf-8")
                if fault == "slow_body":
                    self._trickle(payload, plan.hang_seconds)
                else:
                    self._send(200, payload)

        def _trickle(self, payload: bytes, seconds: float) -> None:
            """Send `payload` in pieces spread over `seconds` (each gap short)."""
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            pieces = max(1, min(len(payload), 50))
            size = -(-len(payload) // pieces)
            try:
                for start in range(0, len(payload), size):
                    self.wfile.write(payload[start : start + size])
                    self.wfile.flush()
                    if server._stopping.wait(seconds / pieces):
                        self.close_connection = True
                        break
            except OSError:  # the client gave up, as it should
                self.close_connection = True

        def finish(self) -> None:
            with contextlib.suppress(OSError, ValueError):  # a socket reset on purpose
                super().finish()

    return Handler
