"""Each sandbox domain's OpenAI tool schemas match their JSON snapshot.

Docstrings are text the model reads, so any change to a description, argument or type shows
up here. After an intended change, regenerate with `TOOLPLAY_UPDATE_SNAPSHOTS=1 pytest ...`
and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import support
from support import registry_for

SANDBOX_DOMAINS = [
    "settings",
    "contacts",
    "messaging",
    "reminders",
    "timeutil",
    "mathutil",
    "places",
    "weather",
    "stocks",
    "holidays",
]
SNAPSHOTS = Path(__file__).parent / "schemas"


@pytest.mark.parametrize("domain", SANDBOX_DOMAINS)
def test_schema_snapshot(domain: str) -> None:
    registry = registry_for([domain])
    schemas = [s.schema for s in registry.tools.values() if s.domain == domain]
    text = json.dumps(schemas, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    path = SNAPSHOTS / f"{domain}.json"
    if os.environ.get("TOOLPLAY_UPDATE_SNAPSHOTS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot for {domain}; run with TOOLPLAY_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8")


def test_every_sandbox_domain_is_in_the_catalog() -> None:
    assert set(SANDBOX_DOMAINS) <= set(support.CATALOG.tools.domains)
