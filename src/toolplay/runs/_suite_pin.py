"""A run's suite, pinned: absolute paths and a fingerprint of the files' content.

A suite spec typed as a relative path (`../shared/tooltalk`, `tooltalk:../shared/tooltalk`,
`autode-data:DIR?required=marked`) is made absolute before the run stores it, so `toolplay
score`, `--resume` and `report` find the suite from any working directory. The fingerprint
is a SHA-256 over every file under that path (relative name and bytes, hidden files left
out): resuming or re-scoring after the files changed is refused, and a suite that was moved
or deleted is named as such rather than as an unknown suite. Built-in suites have no path
and no fingerprint (the toolplay version pins them).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from pathlib import Path

__all__ = ["fingerprint", "pin_suite", "suite_path"]


def _split(spec: str, importers: Collection[str]) -> tuple[str, str, str]:
    """(prefix with its colon, path part, query part) of a suite spec."""
    name, sep, argument = spec.partition(":")
    if sep and name in importers:
        path, mark, query = argument.partition("?")
        return f"{name}:", path, mark + query
    return "", spec, ""


def suite_path(spec: str, importers: Collection[str], suites: Collection[str]) -> Path | None:
    """The file or folder a suite spec reads (None for a named suite)."""
    if spec in suites:
        return None
    _, path, _ = _split(spec, importers)
    return Path(path).expanduser() if path else None


def pin_suite(spec: str, importers: Collection[str], suites: Collection[str]) -> str:
    """`spec` with an existing relative path made absolute (anything else unchanged)."""
    path = suite_path(spec, importers, suites)
    if path is None or path.is_absolute() or not path.exists():
        return spec
    prefix, _, query = _split(spec, importers)
    return f"{prefix}{path.resolve()}{query}"


def fingerprint(path: Path | None) -> str | None:
    """SHA-256 of the content under `path` (a file or a folder); None when there is none."""
    if path is None or not path.exists():
        return None
    digest = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    for file in files:
        relative = file.relative_to(path) if file != path else Path(file.name)
        if any(part.startswith(".") for part in relative.parts):
            continue
        digest.update(str(relative.as_posix()).encode() + b"\0")
        digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()
