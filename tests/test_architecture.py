"""Dependency direction between packages (docs/architecture.md), checked on the source."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "toolplay"

# package -> packages it may import (besides itself). One conversation is `conversation`; a
# whole run is `runs`; model clients are apart from the roles built on them; the catalog sits
# above everything a plugin can add and below what runs and reports them.
LOW = {"messages", "faults", "settings", "errors"}
CORE_BELOW_RUNS = {*LOW, "world", "tools", "domains", "scenarios", "clients", "roles", "users"}
ALLOWED = {
    "messages": set(),
    "faults": set(),
    "settings": set(),
    "errors": set(),
    "stats": set(),
    "world": {"messages"},
    "tools": {"messages", "world"},
    "domains": {"messages", "world", "tools"},
    "scenarios": {*LOW, "world", "tools"},
    "clients": {*LOW},
    "roles": {*LOW, "world", "tools", "scenarios", "clients"},
    "conversation": {*LOW, "world", "tools", "scenarios", "clients", "roles"},
    # the user-error checks: pure functions of a trajectory and the scenario's user side
    "users": {*LOW, "scenarios"},
    "scoring": {*LOW, "world", "tools", "scenarios", "stats", "users"},
    "store": {"errors"},
    "testing": {*LOW, "world", "tools", "scenarios", "clients", "roles", "conversation", "catalog"},
    "catalog": {*CORE_BELOW_RUNS, "conversation", "scoring", "stats", "builtin"},
    # a published method: everything a plugin can use, nothing that runs or reports runs
    "methods": {*CORE_BELOW_RUNS, "conversation", "scoring", "stats", "catalog"},
    # the built-ins: the core's own parts and the three methods' register calls
    "builtin": {*CORE_BELOW_RUNS, "conversation", "scoring", "stats", "catalog", "methods"},
    "runs": {
        *CORE_BELOW_RUNS,
        "conversation",
        "scoring",
        "stats",
        "store",
        "catalog",
        "__init__",
    },
    "analysis": {
        *LOW,
        "scenarios",
        "scoring",
        "stats",
        "store",
        "runs",
        "catalog",
        "users",
        "__init__",
    },
    "report": {
        *LOW,
        "users",
        "scenarios",
        "scoring",
        "stats",
        "store",
        "runs",
        "catalog",
        "analysis",
        "__init__",
    },
    "validate": {*CORE_BELOW_RUNS, "conversation", "scoring", "catalog", "runs"},
    # bridges to other frameworks (optional extras): above everything but the CLI
    "integrations": {
        *CORE_BELOW_RUNS,
        "conversation",
        "scoring",
        "stats",
        "store",
        "catalog",
        "runs",
        "__init__",
    },
}
KNOWN: set[str] = set()
"""Import-direction violations that exist and are being removed; the list may only shrink."""
OPTIONAL = {"inspect_ai": "integrations"}
"""Optional extras' packages -> the one toolplay package that may import them."""


def package_of(path: Path) -> str:
    relative = path.relative_to(SRC)
    return relative.parts[0].removesuffix(".py")


def imported_packages(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "toolplay":
                found.add(parts[1] if len(parts) > 1 else "__init__")
    return found


def test_imports_point_one_way() -> None:
    violations = []
    for path in sorted(SRC.rglob("*.py")):
        package = package_of(path)
        if package in ("cli", "__init__"):
            continue
        allowed = ALLOWED.get(package)
        assert allowed is not None, f"{path}: package {package!r} missing from ALLOWED"
        for target in imported_packages(path) - {package}:
            if target == "cli" or target not in allowed:
                violations.append(f"{path.relative_to(SRC)} imports toolplay.{target}")
    new = sorted(set(violations) - KNOWN)
    gone = sorted(KNOWN - set(violations))
    assert not new, "\n".join(new)
    assert not gone, "fixed, remove from KNOWN:\n" + "\n".join(gone)


def external_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_optional_extras_are_imported_only_by_their_bridge() -> None:
    violations = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in sorted(SRC.rglob("*.py"))
        for name in external_imports(path) & set(OPTIONAL)
        if package_of(path) != OPTIONAL[name]
    ]
    assert not violations, "\n".join(violations)


def test_no_module_over_800_lines() -> None:
    long = [
        f"{p.relative_to(SRC)}: {n}"
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 800
    ]
    assert not long, long
