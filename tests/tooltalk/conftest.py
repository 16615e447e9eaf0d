"""Shared pieces for ToolTalk tests: the official data (skipped when absent), a small
hand-built world, a call helper and the real embedding similarity (loaded once)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from support import load_suite, registry_for
from toolplay.domains.tooltalk import DOMAIN_NAMES
from toolplay.messages import ToolCall
from toolplay.scenarios import Suite
from toolplay.scoring import EmbeddingSimilarity
from toolplay.tools import Registry, ToolOutcome
from toolplay.world import World

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "tooltalk"
CLOCK = datetime(2023, 9, 11, 13, 0, tzinfo=UTC)
TOKEN = "aaaaaaaa-bbbb-cccc"


def require_data() -> Path:
    """The official ToolTalk folder, or skip the test."""
    if not (DATA / "databases").is_dir():
        pytest.skip(f"ToolTalk data not found at {DATA.resolve()} (../shared/tooltalk)")
    return DATA.resolve()


@pytest.fixture(scope="session")
def tooltalk_dir() -> Path:
    """The official data folder (tests using it skip when it is absent)."""
    return require_data()


@pytest.fixture(scope="session")
def tooltalk_suite(tooltalk_dir: Path) -> Suite:
    """The imported official suite (78 conversations)."""
    return load_suite(f"tooltalk:{tooltalk_dir}")


@pytest.fixture(scope="session")
def similarity() -> EmbeddingSimilarity:
    """The real all-MiniLM-L6-v2 similarity (slow to load: once per test session)."""
    from toolplay.scoring._embeddings import shared_similarity

    return shared_similarity()


def account(username: str, **fields: Any) -> dict[str, Any]:
    """An account row with plausible defaults."""
    row = {
        "username": username,
        "password": f"{username}-pw",
        "session_token": None,
        "email": f"{username}@mail.com",
        "phone": "123-456-7890",
        "name": username.title(),
        "verification_code": None,
    }
    return {**row, **fields}


def small_world(
    logged_in: str | None = "alice", **tables: list[dict[str, Any]]
) -> tuple[Registry, World]:
    """A registry of the seven plugins and a small world built in code.

    Users alice and bob exist; `logged_in` names who holds the session (None: nobody).
    """
    registry = registry_for(DOMAIN_NAMES)
    accounts = [
        account("alice", session_token=TOKEN if logged_in == "alice" else None),
        account("bob", session_token=TOKEN if logged_in == "bob" else None),
    ]
    rows: dict[str, list[dict[str, Any]]] = {"tooltalk_accounts": accounts, **tables}
    session = {"session_token": TOKEN if logged_in else None, "username": logged_in}
    return registry, registry.new_world(rows, clock=CLOCK, session=session)


def call(registry: Registry, world: World, tool: str, /, **arguments: Any) -> ToolOutcome:
    """Execute one call by tool name with keyword arguments."""
    world.index += 1
    return registry.execute(world, ToolCall.from_args(f"c{world.index}", tool, arguments))


@pytest.fixture
def make_world() -> Any:
    """`small_world` as a fixture (tests build several worlds)."""
    return small_world


@pytest.fixture
def run() -> Any:
    """`call` as a fixture: run(registry, world, "AddAlarm", time="08:00:00")."""
    return call
