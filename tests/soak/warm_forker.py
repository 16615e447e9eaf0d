"""A warmed-up `toolplay` that forks one child per run and can arrange its SIGKILL (test helper).

Importing `toolplay.cli` costs a couple of seconds; a crash test that starts a run many times
pays it once here. Requests arrive one JSON object per line on stdin, answers leave one per
line on stdout:

- `{"op": "start", "args", "cwd", "env", "log", "kill"}` forks a child that runs
  `toolplay ARGS` (stdout and stderr to `log`) and answers `{"pid": N}` at once. `kill`, when
  given, makes the child SIGKILL itself at a chosen point of its store writes (see `_arm`):
  `{"point": "rename" | "before_commit" | "mid_commit", "at": N, "delay": SECONDS}` fires at the
  N-th such point (`rename`: a run file written to its temporary name but not yet renamed;
  `before_commit`: a store transaction written but not committed; `mid_commit`: a timer
  fires `delay` seconds after the commit starts, while SQLite writes and syncs its log).
- `{"op": "poll", "pid": N}` answers `{"code": null}` while the child runs, else its code.
- `{"op": "wait", "pid": N}` waits for the child and answers `{"code": C}` (-9: killed).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from toolplay.cli import app
from toolplay.store import RunStore


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _arm(kill: dict[str, Any]) -> None:
    """Patch this child so that it SIGKILLs itself at the requested point."""
    point, at, delay = kill["point"], int(kill["at"]), float(kill.get("delay", 0.0))
    seen = 0

    def due() -> bool:
        nonlocal seen
        seen += 1
        return seen == at

    if point == "rename":  # trajectory files are not fsynced (the store is): hook the rename
        real_replace = os.replace

        def replace(source: Any, target: Any) -> None:
            if due():
                _die()
            real_replace(source, target)

        os.replace = replace
        return
    real_transaction = RunStore._transaction

    @contextmanager
    def transaction(self: RunStore) -> Iterator[Any]:
        with real_transaction(self) as db:
            yield db
            if due():
                if point == "before_commit":
                    _die()
                threading.Timer(delay, _die).start()  # lands while COMMIT runs (or just after)

    RunStore._transaction = transaction  # type: ignore[method-assign,unused-ignore]


def _child(request: dict[str, Any]) -> None:
    """Become the `toolplay` process of `request`; never returns."""
    code = 1
    try:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        if request.get("kill"):
            _arm(request["kill"])
        sys.argv = ["toolplay", *request["args"]]
        try:
            app(prog_name="toolplay")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> None:
    """Serve requests until stdin closes."""
    for line in sys.stdin:
        request = json.loads(line)
        answer: dict[str, Any]
        if request["op"] == "start":
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                _child(request)
            answer = {"pid": pid}
        else:
            flags = os.WNOHANG if request["op"] == "poll" else 0
            done, status = os.waitpid(request["pid"], flags)
            answer = {"code": os.waitstatus_to_exitcode(status) if done else None}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
