"""`forker`: start `toolplay` runs as real processes (forked warm) and kill them at will."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


class Forker:
    """Drives `warm_forker.py`: start, poll, wait for and kill `toolplay` processes."""

    def __init__(self, scratch: Path) -> None:
        self.log = scratch / "toolplay.log"
        self._process = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("warm_forker.py"))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "HF_HUB_OFFLINE": "1"},
        )
        self._running: set[int] = set()

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        return dict(json.loads(self._process.stdout.readline()))

    def start(self, args: list[str], cwd: Path, kill: dict[str, Any] | None = None) -> int:
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "COLUMNS": "200"}
        request = {"op": "start", "args": args, "cwd": str(cwd), "env": env, "log": str(self.log)}
        pid = int(self._ask({**request, "kill": kill})["pid"])
        self._running.add(pid)
        return pid

    def poll(self, pid: int) -> int | None:
        code = self._ask({"op": "poll", "pid": pid})["code"]
        if code is None:
            return None
        self._running.discard(pid)
        return int(code)

    def wait(self, pid: int) -> int:
        code = int(self._ask({"op": "wait", "pid": pid})["code"])
        self._running.discard(pid)
        return code

    def close(self) -> None:
        """Stop the helper, first killing any run a failed test left going."""
        for pid in sorted(self._running):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            self.wait(pid)
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)


@pytest.fixture()
def forker(tmp_path: Path) -> Iterator[Forker]:
    running = Forker(tmp_path)
    try:
        yield running
    finally:
        running.close()
