"""What `--resume` starts from: the stored run's configuration, and the default run folder.

`toolplay run --resume --out DIR` alone resumes with the configuration stored in DIR; an
option given on the command line is laid over it, so a differing one is still refused
(`check_identity`), and an operational one (concurrency, timeouts, the cache) may change. A
folder that holds no run yet is simply where the run starts: a scheduler that always passes
`--resume` works even when the first attempt died before the run folder existed.

Without `--out` every run gets its own folder, `runs/<suite>-<assistant>-<N>` with the first
free N; with `--resume` and no `--out`, the latest such folder (the highest N) is resumed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from toolplay.store import CONFIG_FILE, RunStore, StoreError

__all__ = ["default_out", "stored_settings"]

RUNS_ROOT = Path("runs")


def _slug(text: str) -> str:
    """A folder-name-safe form of a suite or assistant spec (`tooltalk:../x` -> `tooltalk-x`)."""
    last = text.rstrip("/").split("/")[-1] if "/" in text else text
    cleaned = re.sub(r"[^A-Za-z0-9_.-]+", "-", last).strip("-.")
    return cleaned[:40] or "run"


def default_out(suite: str, assistant: str, *, resume: bool, root: Path = RUNS_ROOT) -> Path:
    """The run folder of a run without `--out` (see the module docstring)."""
    stem = f"{_slug(suite)}-{_slug(assistant)}"
    taken = [
        int(match.group(1))
        for path in (root.iterdir() if root.is_dir() else ())
        if (match := re.fullmatch(re.escape(stem) + r"-(\d+)", path.name))
    ]
    if resume and taken:
        return root / f"{stem}-{max(taken)}"
    return root / f"{stem}-{max(taken, default=0) + 1}"


def stored_settings(out: Path) -> dict[str, Any] | None:
    """The configuration a run in `out` was stored with (None: no run there yet).

    `config.json` holds the whole resolved configuration, operational settings included; when
    it is missing or unreadable, the store's record of the run's identity stands in.
    """
    if not (out / RunStore.FILENAME).is_file():
        return None
    try:
        data = json.loads((out / CONFIG_FILE).read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return data
    except (OSError, ValueError):
        pass
    try:
        store = RunStore.in_dir(out)
    except StoreError:
        return None
    try:
        stored = store.get_meta("config")
    except StoreError:
        return None
    finally:
        store.close()
    return stored if isinstance(stored, dict) else None
