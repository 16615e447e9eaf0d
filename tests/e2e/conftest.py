"""`toolplay_process`: run `toolplay` command lines as real processes, quickly.

Each call is a separate process (forked from a warmed-up interpreter, see `warm_cli.py`) with
its own exit status, stdout and stderr, so tests see exactly what a user's shell sees.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

HELPER = Path(__file__).with_name("warm_cli.py")


@dataclass(frozen=True)
class CliResult:
    """What one `toolplay` process did."""

    code: int | None
    stdout: str
    stderr: str


class ToolplayProcess:
    """Runs `toolplay ARGS...` in a fresh process per call (see the module docstring)."""

    def __init__(self, scratch: Path) -> None:
        self._scratch = scratch
        self._count = 0
        self._server = subprocess.Popen(
            [sys.executable, str(HELPER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=self.environment(),
        )

    @staticmethod
    def environment() -> dict[str, str]:
        """The environment of every command: this one, wide and offline."""
        return {**os.environ, "COLUMNS": "200", "HF_HUB_OFFLINE": "1"}

    def __call__(
        self, *args: str, cwd: Path, timeout: float = 120, stderr: Path | None = None
    ) -> CliResult:
        """Run `toolplay *args` in `cwd` and wait for it.

        `stderr` sends the process's stderr to that file instead (e.g. a terminal device, to
        see what a person sees); the result's `stderr` is then empty.
        """
        assert self._server.stdin is not None and self._server.stdout is not None
        self._count += 1
        out, err = (self._scratch / f"{self._count}.{name}" for name in ("out", "err"))
        if stderr is not None:
            err = stderr
        request = {
            "args": list(args),
            "cwd": str(cwd),
            "env": self.environment(),
            "stdout": str(out),
            "stderr": str(err),
            "timeout": timeout,
        }
        self._server.stdin.write(json.dumps(request) + "\n")
        self._server.stdin.flush()
        answer = json.loads(self._server.stdout.readline())
        captured = "" if stderr is not None else err.read_text("utf-8")
        return CliResult(answer["code"], out.read_text("utf-8"), captured)

    def close(self) -> None:
        """Stop the helper process."""
        if self._server.stdin is not None:
            self._server.stdin.close()
        self._server.wait(timeout=30)


@pytest.fixture(scope="session")
def toolplay_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolplayProcess]:
    """A `ToolplayProcess` shared by the session (its output files live in a temp dir)."""
    runner = ToolplayProcess(tmp_path_factory.mktemp("toolplay-process"))
    try:
        yield runner
    finally:
        runner.close()
