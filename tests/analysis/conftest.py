"""Small suites built for the audit: each scenario is made to raise exactly some flags.

`sound_a`, `sound_b`, `flaky`, `hard`: contacts to add, scored by milestones; `broken_gold`:
its milestone wants a name the reference does not add (a gold answer nothing produces);
`free`: its milestone holds in the initial world (doing nothing passes). The ladder suite
has five steps of rising difficulty and `reverse`, which only the weakest runs pass.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from toolplay.cli import app

AGENTS = Path(__file__).with_name("agents.py")
SELF = {
    "person_id": "self-0001",
    "name": "Sam Park",
    "phone_number": "+14155550100",
    "relationship": "self",
    "is_self": True,
}


def invoke(*args: str, status: int = 0, columns: int = 200) -> str:
    """Run the CLI in-process; fail with its output unless it exits with `status`."""
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert result.exit_code == status, result.output + repr(result.exception)
    return result.output


def add_contact(sid: str, name: str, phone: str, wanted: str | None = None) -> dict[str, Any]:
    """A scenario: the user asks to add `name`; the milestone wants `wanted` (default name)."""
    ask = f"Please add {name} to my contacts, the number is {phone}."
    return {
        "id": sid,
        "description": f"Add {name}.",
        "categories": ["single_tool_call"],
        "world": {"domains": ["contacts"], "tables": {"contacts": [SELF]}},
        "user": {"script": [ask]},
        "reference": [
            {
                "user": ask,
                "calls": [
                    {"name": "add_contact", "arguments": {"name": name, "phone_number": phone}}
                ],
                "reply": "Done: the contact is added.",
            }
        ],
        "milestones": [
            {
                "id": "added",
                "constraints": [
                    {
                        "kind": "added",
                        "table": "contacts",
                        "rows": [{"name": wanted or name, "phone_number": phone}],
                    }
                ],
            }
        ],
    }


def free() -> dict[str, Any]:
    """A scenario whose only milestone holds before anything happens."""
    ask = "Is Sam Park in my contacts?"
    return {
        "id": "free",
        "world": {"domains": ["contacts"], "tables": {"contacts": [SELF]}},
        "user": {"script": [ask]},
        "reference": [{"user": ask, "reply": "Yes, Sam Park is there."}],
        "milestones": [
            {
                "id": "known",
                "constraints": [
                    {
                        "kind": "state",
                        "table": "contacts",
                        "match": "contains",
                        "rows": [{"name": "Sam Park"}],
                    }
                ],
            }
        ],
    }


def write_suite(folder: Path, scenarios: list[dict[str, Any]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "scenarios.yaml").write_text(yaml.safe_dump({"scenarios": scenarios}))
    return folder


@pytest.fixture(scope="session")
def flag_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_suite(
        tmp_path_factory.mktemp("flag-suite") / "suite",
        [
            add_contact("sound_a", "Alice Chen", "+14155550101"),
            add_contact("sound_b", "Bob Rivera", "+14155550102"),
            add_contact("broken_gold", "Carol Diaz", "+14155550103", wanted="Carol Dias"),
            free(),
            add_contact("hard", "Dana Kim", "+14155550104"),
            add_contact("flaky", "Eve Moreau", "+14155550105"),
        ],
    )


RunMaker = Callable[..., Path]


@pytest.fixture(scope="session")
def cli() -> Callable[..., str]:
    """`cli(*args, status=0, columns=200)`: the CLI run in-process (see `invoke`)."""
    return invoke


@pytest.fixture(scope="session")
def contact_scenario() -> Callable[..., dict[str, Any]]:
    """`contact_scenario(id, name, phone, wanted=None)` (see `add_contact`)."""
    return add_contact


@pytest.fixture(scope="session")
def suite_writer() -> Callable[[Path, list[dict[str, Any]]], Path]:
    """`suite_writer(folder, scenarios)`: a folder suite (see `write_suite`)."""
    return write_suite


@pytest.fixture(scope="session")
def make_run(tmp_path_factory: pytest.TempPathFactory) -> RunMaker:
    """`make_run(suite, assistant, trials=1)`: a run folder, made once per session."""
    root = tmp_path_factory.mktemp("runs")
    made: dict[tuple[str, str, int], Path] = {}

    def make(suite: Path | str, assistant: str, trials: int = 1) -> Path:
        key = (str(suite), assistant, trials)
        if key not in made:
            name = assistant.rsplit(":", 1)[-1]
            out = root / f"{Path(str(suite)).name}-{name}-{trials}-{len(made)}"
            spec = (
                f"python:{AGENTS}:{assistant}"
                if assistant not in ("oracle", "no-call")
                else assistant
            )
            invoke(
                "run",
                "--suite",
                str(suite),
                "--assistant",
                spec,
                "--trials",
                str(trials),
                "--out",
                str(out),
            )
            made[key] = out
        return made[key]

    return make
