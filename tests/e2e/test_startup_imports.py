"""Issue 24 item 7: what `toolplay --help` and `toolplay suites` import (their speed is measured
by bench/bench_startup.py; here, that the heavy parts stay out and the listing stays right).

`--help` imports no command module (the commands are read from the modules' source, `cli._lazy`);
`suites` loads the catalog but no HTTP client, no numpy, no report templates.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import io, json, sys
    from contextlib import redirect_stdout
    sys.argv = ["toolplay", *json.loads(sys.argv[1])]
    from toolplay.cli import app
    with redirect_stdout(io.StringIO()):
        try:
            app()
        except SystemExit:
            pass
    print(json.dumps(sorted(sys.modules)))
    """
)


def imported(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(list(args))],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_help_imports_no_command_and_no_library() -> None:
    modules = imported("--help")
    assert not {
        m
        for m in modules
        if m.startswith("toolplay.cli._") and m not in ("toolplay.cli._app", "toolplay.cli._lazy")
    }
    for heavy in ("toolplay.catalog", "toolplay.runs", "pydantic", "aiohttp", "numpy"):
        assert heavy not in modules, heavy


def test_suites_leaves_the_client_numpy_and_the_report_out() -> None:
    modules = imported("suites")
    assert "toolplay.catalog" in modules
    for heavy in (
        "aiohttp",
        "numpy",
        "scipy",
        "jinja2",
        "yaml",
        "toolplay.runs",
        "toolplay.report",
    ):
        assert heavy not in modules, heavy


EAGER = textwrap.dedent(
    """
    import sys, typer.main
    from toolplay.cli import app
    from toolplay.cli._lazy import declared_commands
    group = typer.main.get_command(app)
    for command in declared_commands():  # every module imported, every command loaded
        group.get_command(None, command.name)
    sys.argv = ["toolplay", "--help"]
    group.main(prog_name="toolplay")
    """
)


def help_listing(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env={**os.environ}, timeout=300
    )
    return done.stdout[done.stdout.index("Commands:") :].splitlines()


def test_the_lazy_listing_is_what_the_commands_declare() -> None:
    """`--help` lists, from source, the commands and short help that loading every command
    gives (one definition: the commands' docstrings)."""
    from toolplay.cli._lazy import declared_commands

    assert help_listing("-m", "toolplay.cli", "--help") == help_listing("-c", EAGER)
    names = [c.name for c in declared_commands()]
    assert names[:3] == ["run", "validate", "suites"] and "import-inspect" in names
    assert len(names) == len(set(names)) == 13  # audit and review joined
