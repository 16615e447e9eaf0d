"""Checks made before a run starts: what `--out` holds, and what a resumed run was.

A run that cannot start must create nothing (no run directory, no response cache) and leave
an existing run byte for byte as it was, so these checks run first, before the suite loads
and any model is built; `open_run` repeats them under the store's exclusive lock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from toolplay.errors import InputError
from toolplay.runs._config import RunConfig, run_identity
from toolplay.store import RunStore

__all__ = ["RunError", "check_identity", "check_out", "check_paths", "stored_identity"]


class RunError(InputError):
    """The run cannot start (existing directory without --resume, config mismatch, ...)."""


def stored_identity(stored: Any, config: RunConfig) -> Any:
    """A stored run identity in the current format (older versions are migrated)."""
    if not isinstance(stored, dict) or stored.get("version", 1) >= RunConfig().version:
        return stored
    try:
        return run_identity(RunConfig.model_validate({**stored, "out": str(config.out)}))
    except ValidationError:
        return stored


def check_paths(config: RunConfig) -> None:
    """Refuse an `--out` that is not a folder, or that holds a run unless `--resume`."""
    out = config.out
    store_file = out / RunStore.FILENAME
    if out.exists() and not out.is_dir():
        raise RunError(f"{out}: not a directory (--out names the run directory)")
    if store_file.exists() and not config.resume:
        raise RunError(f"{out}: already holds a run; pass --resume to continue it or choose --out")
    # `--resume` on a folder without a run starts it (see `runs._resume`).


def check_identity(
    stored: Any, config: RunConfig, pin: Callable[[str], str] = lambda spec: spec
) -> None:
    """Refuse to resume a stored run under another configuration, naming what differs.

    `pin` puts a suite spec in its stored form (absolute paths), so a run stored before suite
    paths were stored absolute still matches; a run stored without a suite fingerprint does
    not have it checked.
    """
    current = run_identity(config)
    stored = stored_identity(stored, config)
    if isinstance(stored, dict):
        stored = dict(stored)
        if isinstance(stored.get("suite"), str):
            stored["suite"] = pin(stored["suite"])
        if stored.get("suite_fingerprint") is None:
            stored.pop("suite_fingerprint", None)
            current.pop("suite_fingerprint", None)
        elif stored.get("suite") == current.get("suite") and stored.get(
            "suite_fingerprint"
        ) != current.get("suite_fingerprint"):
            raise RunError(
                f"{config.out}: --resume: the files of suite {config.suite} changed since the "
                "run was stored (their fingerprint differs); start a new run, or restore the "
                "files"
            )
    if stored is None or stored == current:
        return
    if not isinstance(stored, dict):
        raise RunError(f"{config.out}: the stored run configuration is not readable")
    differences = []
    for key in sorted(set(stored) | set(current)):
        was, now = stored.get(key), current.get(key)
        if isinstance(was, dict) or isinstance(now, dict):  # an absent section is an empty one
            was, now = was if was is not None else {}, now if now is not None else {}
        if isinstance(was, dict) and isinstance(now, dict):  # a section: name the setting
            differences += [
                f"{key}.{k}: stored {was.get(k)!r}, now {now.get(k)!r}"
                for k in sorted(set(was) | set(now))
                if was.get(k) != now.get(k)
            ]
        elif was != now:
            differences.append(f"{key}: stored {was!r}, now {now!r}")
    raise RunError(
        f"{config.out}: --resume with a different configuration than the stored run "
        f"({'; '.join(differences)})"
    )


def check_out(config: RunConfig, pin: Callable[[str], str] = lambda spec: spec) -> None:
    """Refuse, before anything is loaded or created, a run that cannot start in `config.out`.

    The directory must be a folder that holds no run unless `--resume` is given (which on an
    empty or missing folder starts the run), and a resumed run must have been stored with this
    configuration. `open_run` checks again under
    the store's lock; checking first keeps a run that cannot start from creating its response
    cache or loading a model.

    Raises:
        RunError: naming the directory and the reason.
    """
    check_paths(config)
    if config.resume and (config.out / RunStore.FILENAME).exists():
        store = RunStore.in_dir(config.out)
        try:
            check_identity(store.get_meta("config"), config, pin)
        finally:
            store.close()
