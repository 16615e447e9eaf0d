"""A warmed-up `toolplay` process that forks one child per command line (test helper).

Importing `toolplay.cli` takes about 1.5 s (scipy, nltk), which would dominate a test module
that runs dozens of short, failing commands. This script imports it once, then reads one JSON
request per line on stdin — `{"args", "cwd", "env", "stdout", "stderr", "timeout"}` — and for
each forks a child that is, from then on, an ordinary `toolplay` process: its own working
directory and environment, stdin from /dev/null, stdout and stderr on the given files, and an
exit status set exactly as the `toolplay` console script sets it (`sys.exit(app())`, with an
uncaught exception going through `sys.excepthook`). It answers `{"code": N}` per request, or
`{"code": null}` when the child was killed after `timeout` seconds.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import traceback
from typing import Any

from toolplay.cli import app


def _child(request: dict[str, Any]) -> None:
    """Become the `toolplay` process of `request`; never returns."""
    code = 1
    try:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        for fd, key in ((1, "stdout"), (2, "stderr")):
            flags = os.O_WRONLY | (
                0 if request[key].startswith("/dev/") else os.O_CREAT | os.O_TRUNC
            )
            os.dup2(os.open(request[key], flags, 0o644), fd)
        sys.argv = ["toolplay", *request["args"]]
        try:
            result = app(prog_name="toolplay")
            code = 0 if result is None else int(result)
        except SystemExit as exc:  # what `sys.exit` would do with each kind of value
            if exc.code is None:
                code = 0
            elif isinstance(exc.code, int):
                code = exc.code
            else:
                print(exc.code, file=sys.stderr)
        except BaseException:
            sys.excepthook(*sys.exc_info())
    except BaseException:  # the helper itself failed: say so on the child's stderr
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _wait(pid: int, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.005)


def main() -> None:
    """Serve requests until stdin closes."""
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request)
        code = _wait(pid, float(request.get("timeout", 120)))
        sys.stdout.write(json.dumps({"code": code}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
