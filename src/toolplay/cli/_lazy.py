"""Commands loaded when they run: `toolplay --help` and `toolplay suites` start in a blink.

Each command lives in a module of this package that registers it with `@app.command(...)`.
Importing every one of them (and, through their option help, the run configuration and the
whole library) cost about a second before any command started. So the app's group knows the
commands from the modules' *source*: `declared_commands` reads each `cli/_*.py` file's syntax
tree (not importing it) for functions decorated with `app.command`, giving each command's
name, module and docstring. `--help` lists them from that (the short help Click would show);
a command's module is imported only when that command is looked up to run (or to show its own
help). Modules named in `ORDER` come first in the listing, in that order; any other module
declaring commands follows, by name.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

ORDER = (
    "_run",
    "_suites",
    "_results",
    "_review",
    "_audit",
    "_baselines",
    "_schema",
    "_glossary",
    "_inspect",
)
"""Command modules in the order `--help` lists their commands."""


class Declared(NamedTuple):
    """A command as its module's source declares it."""

    name: str
    module: str
    help: str


def _command_name(node: ast.FunctionDef, decorator: ast.expr) -> str | None:
    """The name `@app.command(...)` gives `node` (Typer's: the function's, `_` → `-`)."""
    if not (isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "app.command"):
        return None
    given: list[ast.expr] = [*decorator.args[:1]]
    given += [k.value for k in decorator.keywords if k.arg == "name"]
    for value in given:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    return node.name.replace("_", "-")


def declared_commands(folder: Path | None = None) -> list[Declared]:
    """Every command the package's modules declare, in listing order."""
    here = folder or Path(__file__).parent
    found = sorted(
        (p for p in here.glob("_*.py") if p.stem not in ("__init__", "__main__")),
        key=lambda p: (ORDER.index(p.stem) if p.stem in ORDER else len(ORDER), p.stem),
    )
    commands = []
    for path in found:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                name = _command_name(node, decorator)
                if name is not None:
                    doc = ast.get_docstring(node) or ""
                    commands.append(Declared(name, f"toolplay.cli.{path.stem}", doc))
    return commands
