"""The official AutoDE data for the tests that need it (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import load_suite
from toolplay.scenarios import Suite

AUTODE = Path(__file__).resolve().parents[2] / ".." / "shared" / "autode"


def require_autode() -> Path:
    """The AutoDE checkout in ../shared/autode, or skip the test."""
    if not (AUTODE / "datasets" / "data_v1_2.jsonl").is_file():
        pytest.skip(f"AutoDE data not found at {AUTODE.resolve()} (../shared/autode)")
    return AUTODE.resolve()


@pytest.fixture(scope="session")
def autode_dir() -> Path:
    """The AutoDE checkout (tests using it skip when it is absent)."""
    return require_autode()


@pytest.fixture(scope="session")
def autode_suite(autode_dir: Path) -> Suite:
    """The imported official benchmark (276 dialogues)."""
    return load_suite(f"autode-data:{autode_dir}")
