"""Opt-in markers (pyproject.toml): `slow` runs only with --runslow, `live` with --runlive."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # `import support` (tests/support.py)

OPT_IN = {"slow": "--runslow", "live": "--runlive"}


def pytest_addoption(parser: pytest.Parser) -> None:
    for marker, flag in OPT_IN.items():
        parser.addoption(flag, action="store_true", help=f"also run tests marked {marker}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for marker, flag in OPT_IN.items():
        if config.getoption(flag):
            continue
        skip = pytest.mark.skip(reason=f"opt-in: pass {flag}")
        for item in items:
            if marker in item.keywords:
                item.add_marker(skip)
