"""Bad input from users of toolplay: refused in one line, and nothing written.

Every command (`run`, `validate`, `suites`, `tools`, `score`, `report`, `compare`) is run as a
real process (`toolplay_process`, tests/e2e/conftest.py) on bad scenario files, unknown suites,
broken ToolTalk folders, unreadable run directories, bad human-score files and bad option
values. For each, the process must exit non-zero with exactly one line on stderr, of the form
`error: <what>: <why>`, naming the file and field, the folder or the option, with nothing on
stdout and no traceback. Each command runs in a workspace folder holding all of its inputs,
and the whole workspace must be byte-identical afterwards: no run directory created for a run
that could not start, an existing run untouched, no half-written report, no temporary files.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CliResult, ToolplayProcess

TOOLTALK = Path("/work/shared/tooltalk")
VALID = """\
id: s1
description: Add a contact.
world: {domains: [contacts]}
user: {script: ["Add Alice, +14155550123"]}
reference:
  - user: "Add Alice, +14155550123"
    calls: [{name: add_contact, arguments: {name: Alice, phone_number: "+14155550123"}}]
    reply: Done.
"""
MILESTONE = "milestones:\n  - id: m\n    constraints: [{kind: %s, table: contacts, rows: []}]\n"
ITEM = "  - " + "\n    ".join(VALID.splitlines())
"""VALID as an item of a `scenarios:` list."""


def snapshot(root: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every file and folder under `root`: mode and bytes (None for a folder)."""
    found: dict[str, tuple[int, bytes | None]] = {}
    for path in sorted(root.rglob("*")):
        data = None if path.is_dir() else path.read_bytes()
        found[str(path.relative_to(root))] = (path.stat().st_mode, data)
    return found


def assert_refused(result: CliResult, *needles: str) -> str:
    """Non-zero exit, nothing on stdout, one `error: ...` line on stderr naming `needles`."""
    assert result.code not in (0, None), result
    assert result.stdout == "", result
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0], f"{needle!r} not in {lines[0]!r}"
    return lines[0]


def refuse(cli: ToolplayProcess, workspace: Path, args: list[str], *needles: str) -> str:
    """Run `args` in `workspace`, assert the refusal, and that the workspace is unchanged."""
    before = snapshot(workspace)
    line = assert_refused(cli(*args, cwd=workspace), *needles)
    assert snapshot(workspace) == before, f"{args} changed the workspace"
    return line


def write(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "workspace"
    path.mkdir()
    return path


# ---- scenario files and suite names -------------------------------------------------------
SCENARIO_CASES: dict[str, tuple[dict[str, str | bytes], str, tuple[str, ...]]] = {
    # name: (files, --suite, needles)
    "yaml syntax": ({"bad.yaml": "id: s1\ndescription: [open\n"}, "bad.yaml",
                    ("bad.yaml", "invalid YAML at line 3")),
    "json syntax": ({"bad.json": '{"id": "s1",\n'}, "bad.json",
                    ("bad.json", "invalid JSON at line 2")),
    "wrong type": ({"bad.yaml": VALID.replace("id: s1", "id: [1, 2]")}, "bad.yaml",
                   ("bad.yaml", "field 'id'", "valid string")),
    "unknown field": ({"bad.yaml": VALID + "colour: blue\n"}, "bad.yaml",
                      ("bad.yaml", "field 'colour'", "not permitted")),
    "unknown tool": ({"bad.yaml": VALID.replace("add_contact", "add_kontact")}, "bad.yaml",
                     ("bad.yaml", "reference[0].calls[0].name", "'add_kontact'")),
    "unknown domain in a list": (
        {"bad.yaml": f"scenarios:\n{ITEM}\n{ITEM.replace('s1', 's2').replace('[contacts]', '[kontacts]')}\n"},
        "bad.yaml", ("bad.yaml", "scenarios[1].world.domains", "kontacts")),
    "bad milestone kind": ({"bad.yaml": VALID + MILESTONE % "teleported"}, "bad.yaml",
                           ("bad.yaml", "milestones", "teleported")),
    "milestone after unknown id": (
        {"bad.yaml": VALID + MILESTONE % "added" + "    after: [nowhere]\n"}, "bad.yaml",
        ("bad.yaml", "milestones[0].after", "'nowhere'")),
    "duplicate ids": ({"suite/a.yaml": VALID, "suite/b.yaml": VALID}, "suite",
                      ("suite/b.yaml", "duplicate id 's1'", "suite/a.yaml")),
    "empty file": ({"bad.yaml": ""}, "bad.yaml", ("bad.yaml", "empty")),
    "a bare string": ({"bad.yaml": "hello\n"}, "bad.yaml", ("bad.yaml", "expected a scenario")),
    "binary file": ({"bad.yaml": bytes(range(256))}, "bad.yaml", ("bad.yaml", "not UTF-8")),
    "folder without scenario files": ({"suite/notes.txt": "hi"}, "suite",
                                      ("suite", "no scenario files")),
    "missing path": ({}, "nowhere/s.yaml", ("nowhere/s.yaml", "no such file or folder")),
    "unknown suite name": ({}, "quik", ("quik", "unknown suite", "quick")),
    "unknown importer": ({}, "tooltalks:data", ("tooltalks", "unknown importer", "tooltalk")),
}


@pytest.mark.parametrize("command", ["validate", "run", "tools"])
@pytest.mark.parametrize("case", list(SCENARIO_CASES))
def test_bad_scenario_files_and_suites(
    toolplay_process: ToolplayProcess, workspace: Path, case: str, command: str
) -> None:
    files, suite, needles = SCENARIO_CASES[case]
    if command == "tools" and case not in ("unknown tool", "missing path", "unknown importer"):
        pytest.skip("tools --suite loads suites like validate does; a sample suffices")
    write(workspace, files)
    args = [command, "--suite", suite] + (["--out", "out"] if command == "run" else [])
    refuse(toolplay_process, workspace, args, *needles)


# ---- ToolTalk folders --------------------------------------------------------------------
def _first(root: Path, split: str = "tooltalk") -> Path:
    return sorted((root / split).glob("*.json"))[3]


def _edit(path: Path, change: object) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data), encoding="utf-8")


def _rename_first_api(data: dict[str, object]) -> None:
    for turn in data["conversation"]:  # type: ignore[attr-defined]
        if turn.get("apis"):
            turn["apis"][0]["request"]["api_name"] = "LaunchRocket"
            return


TOOLTALK_CASES = {
    "invalid JSON": (lambda root: _first(root).write_text('{"name": ', "utf-8"), "invalid JSON"),
    "missing field": (lambda root: _edit(_first(root), lambda d: d.pop("metadata")),
                      "'metadata'"),
    "unknown api": (lambda root: _edit(_first(root), _rename_first_api), "'LaunchRocket'"),
    "broken database": (
        lambda root: (root / "databases/Alarm.json").write_text('{"x": ', "utf-8"),
        "databases/Alarm.json",
    ),
    "account lacks fields": (
        lambda root: _edit(root / "databases/Account.json", lambda d: d["justinkool"].pop("email")),
        "databases/Account.json",
    ),
}


@pytest.mark.skipif(not TOOLTALK.is_dir(), reason="needs the ToolTalk data in /work/shared")
@pytest.mark.parametrize("command", ["validate", "run"])
@pytest.mark.parametrize("case", list(TOOLTALK_CASES))
def test_broken_tooltalk_copy(
    toolplay_process: ToolplayProcess, workspace: Path, case: str, command: str
) -> None:
    root = workspace / "tt"
    shutil.copytree(TOOLTALK, root)
    damage, needle = TOOLTALK_CASES[case]
    broken = _first(root)
    damage(root)
    where = "tt/databases" if "database" in case or "account" in case else str(
        broken.relative_to(workspace)
    )
    args = [command, "--suite", "tooltalk:tt"] + (["--out", "out"] if command == "run" else [])
    refuse(toolplay_process, workspace, args, where, needle)


@pytest.mark.parametrize(
    ("setup", "needles"),
    [
        ({}, ("tooltalk_data", "not a folder")),
        ({"tooltalk_data/databases/Account.json": "{}", "tooltalk_data/easy/readme.txt": "x"},
         ("tooltalk_data", "no split folder with conversation files")),
        ({"tooltalk_data/easy/a.json": "{}"}, ("tooltalk_data/databases", "missing")),
    ],
    ids=["missing folder", "no conversations", "no databases"],
)
def test_tooltalk_folder_that_is_not_one(
    toolplay_process: ToolplayProcess, workspace: Path, setup: dict[str, str | bytes],
    needles: tuple[str, ...],
) -> None:
    write(workspace, setup)
    for command in (["validate"], ["run", "--out", "out"], ["tools"]):
        refuse(toolplay_process, workspace, [*command, "--suite", "tooltalk:tooltalk_data"], *needles)
