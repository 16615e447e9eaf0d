"""A server that echoes the request's credentials in its error pages cannot leak the key.

Some proxies answer a refused or failed request with an error page quoting the request headers.
toolplay records an endpoint's error text as the cause of an infrastructure error (store,
summary, trajectory files), so the key must be blanked out of that text before it is kept.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toolplay.cli import app

SECRET = "sk-echo-7d2b41-must-not-persist"


class EchoingHandler(BaseHTTPRequestHandler):
    """500 (then 401 for the user's key variable) quoting the Authorization header."""

    protocol_version = "HTTP/1.1"
    status = 500

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 (http.server naming)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        page = f"upstream failed for request with Authorization: {self.headers['Authorization']}"
        body = json.dumps({"error": {"message": page}}).encode()
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(params=[500, 401])
def echoing(request: pytest.FixtureRequest) -> Iterator[str]:
    handler = type("Handler", (EchoingHandler,), {"status": request.param})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_an_echoed_key_is_blanked_out_of_every_recorded_error(echoing: str, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        [
            "run",
            "--assistant",
            "openai:m",
            "--base-url",
            echoing,
            "--api-key-env",
            "ECHO_KEY",
            "--limit",
            "2",
            "--max-retries",
            "1",
            "--option",
            "retry_initial=0.001",
            "--option",
            "retry_jitter=0",
            "--out",
            str(out),
        ],
        env={"ECHO_KEY": SECRET, "COLUMNS": "200"},
    )
    assert result.exit_code == 3, result.output  # finished, with infrastructure errors
    summary = json.loads((out / "summary.json").read_text())
    assert summary["errors"] == 2
    assert all("Bearer [api key]" in e["error"] for e in summary["error_list"])  # still useful
    for path in (p for p in tmp_path.rglob("*") if p.is_file()):
        assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in result.output
