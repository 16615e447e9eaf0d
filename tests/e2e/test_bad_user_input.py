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
import pty
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from support import drain_terminal

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
Files = dict[str, str | bytes]
Damage = Callable[[Path], Any]


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
    return str(lines[0])


def refuse(cli: ToolplayProcess, workspace: Path, args: list[str], *needles: str) -> str:
    """Run `args` in `workspace`, assert the refusal, and that the workspace is unchanged."""
    before = snapshot(workspace)
    line = assert_refused(cli(*args, cwd=workspace), *needles)
    assert snapshot(workspace) == before, f"{args} changed the workspace"
    return line


def write(root: Path, files: Files) -> None:
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
TWO_ITEMS = f"scenarios:\n{ITEM}\n{ITEM.replace('s1', 's2').replace('[contacts]', '[kontacts]')}\n"
SCENARIO_CASES: dict[str, tuple[Files, str, tuple[str, ...]]] = {
    # name: (files in the workspace, --suite, needles)
    "yaml syntax": (
        {"bad.yaml": "id: s1\ndescription: [open\n"},
        "bad.yaml",
        ("bad.yaml", "invalid YAML at line 3"),
    ),
    "json syntax": (
        {"bad.json": '{"id": "s1",\n'},
        "bad.json",
        ("bad.json", "invalid JSON at line 2"),
    ),
    "wrong type": (
        {"bad.yaml": VALID.replace("id: s1", "id: [1, 2]")},
        "bad.yaml",
        ("bad.yaml", "field 'id'", "valid string"),
    ),
    "unknown field": (
        {"bad.yaml": VALID + "colour: blue\n"},
        "bad.yaml",
        ("bad.yaml", "field 'colour'", "not permitted"),
    ),
    "unknown tool": (
        {"bad.yaml": VALID.replace("add_contact", "add_kontact")},
        "bad.yaml",
        ("bad.yaml", "field 'reference[0].calls[0].name'", "'add_kontact'"),
    ),
    "unknown domain in a list": (
        {"bad.yaml": TWO_ITEMS},
        "bad.yaml",
        ("bad.yaml", "field 'scenarios[1].world.domains'", "kontacts"),
    ),
    "bad milestone kind": (
        {"bad.yaml": VALID + MILESTONE % "teleported"},
        "bad.yaml",
        ("bad.yaml", "field 'milestones", "teleported"),
    ),
    "milestone after an unknown id": (
        {"bad.yaml": VALID + MILESTONE % "added" + "    after: [nowhere]\n"},
        "bad.yaml",
        ("bad.yaml", "field 'milestones[0].after'", "'nowhere'"),
    ),
    "duplicate ids": (
        {"suite/a.yaml": VALID, "suite/b.yaml": VALID},
        "suite",
        ("suite/b.yaml", "duplicate id 's1'", "suite/a.yaml"),
    ),
    "empty file": ({"bad.yaml": ""}, "bad.yaml", ("bad.yaml", "empty")),
    "a bare string": ({"bad.yaml": "hello\n"}, "bad.yaml", ("bad.yaml", "expected a scenario")),
    "binary file": ({"bad.yaml": bytes(range(256))}, "bad.yaml", ("bad.yaml", "not UTF-8")),
    "folder without scenario files": (
        {"suite/notes.txt": "hi"},
        "suite",
        ("suite", "no scenario files"),
    ),
    "missing path": ({}, "nowhere/s.yaml", ("nowhere/s.yaml", "no such file or folder")),
    "unknown suite name": ({}, "quik", ("quik", "unknown suite", "quick")),
    "unknown importer": ({}, "tooltalks:data", ("tooltalks", "unknown suite source", "tooltalk:")),
}
TOOLS_SAMPLE = ("unknown tool", "missing path", "unknown importer")


@pytest.mark.parametrize("command", ["validate", "run", "tools"])
@pytest.mark.parametrize("case", list(SCENARIO_CASES))
def test_bad_scenario_files_and_suites(
    toolplay_process: ToolplayProcess, workspace: Path, case: str, command: str
) -> None:
    files, suite, needles = SCENARIO_CASES[case]
    if command == "tools" and case not in TOOLS_SAMPLE:
        pytest.skip("tools --suite loads a suite as validate does; a sample suffices")
    write(workspace, files)
    args = [command, "--suite", suite] + (["--out", "out"] if command == "run" else [])
    refuse(toolplay_process, workspace, args, *needles)


# ---- ToolTalk folders --------------------------------------------------------------------
def _conversation(root: Path) -> Path:
    """The conversation file the cases break (one in the middle of the `tooltalk` split)."""
    return sorted((root / "tooltalk").glob("*.json"))[3]


def _edit_json(path: Path, change: Callable[[Any], object]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _rename_first_api(data: dict[str, Any]) -> None:
    turn = next(t for t in data["conversation"] if t.get("apis"))
    turn["apis"][0]["request"]["api_name"] = "LaunchRocket"


TOOLTALK_CASES: dict[str, tuple[Damage, str | None, str]] = {
    # name: (damage to a copy of the data, file named (None: the conversation), needle)
    "conversation not JSON": (
        lambda root: _conversation(root).write_text('{"name": ', "utf-8"),
        None,
        "invalid JSON",
    ),
    "conversation lacks a field": (
        lambda root: _edit_json(_conversation(root), lambda d: d.pop("metadata")),
        None,
        "field 'metadata': missing",
    ),
    "conversation calls an unknown api": (
        lambda root: _edit_json(_conversation(root), _rename_first_api),
        None,
        "].apis[0].request.api_name': unknown API 'LaunchRocket'",
    ),
    "database not JSON": (
        lambda root: (root / "databases/Alarm.json").write_text('{"x": ', "utf-8"),
        "tt/databases/Alarm.json",
        "invalid JSON",
    ),
    "account lacks fields": (
        lambda root: _edit_json(
            root / "databases/Account.json", lambda d: d["justinkool"].pop("email")
        ),
        "tt/databases/Account.json",
        "field 'justinkool': account lacks field(s) ['email']",
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
    damage, named, needle = TOOLTALK_CASES[case]
    damage(root)
    where = named or str(_conversation(root).relative_to(workspace))
    args = [command, "--suite", "tooltalk:tt"] + (["--out", "out"] if command == "run" else [])
    refuse(toolplay_process, workspace, args, where, needle)


@pytest.mark.parametrize(
    ("files", "needles"),
    [
        ({}, ("data", "not a folder")),
        (
            {"data/databases/Account.json": "{}", "data/easy/readme.txt": "x"},
            ("data", "no split folder with conversation files"),
        ),
        ({"data/easy/a.json": "{}"}, ("data/databases", "missing")),
    ],
    ids=["missing folder", "no conversations", "no databases"],
)
def test_tooltalk_folder_that_is_not_one(
    toolplay_process: ToolplayProcess, workspace: Path, files: Files, needles: tuple[str, ...]
) -> None:
    write(workspace, files)
    for command in (["validate"], ["run", "--out", "out"], ["tools"]):
        refuse(toolplay_process, workspace, [*command, "--suite", "tooltalk:data"], *needles)


# ---- run directories: score, report, compare ---------------------------------------------
@pytest.fixture(scope="module")
def good_run(toolplay_process: ToolplayProcess, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished two-scenario run of the quick suite (copy it before damaging it)."""
    root = tmp_path_factory.mktemp("good")
    result = toolplay_process("run", "--suite", "quick", "--limit", "2", "--out", "run", cwd=root)
    assert result.code == 0, result
    return root / "run"


def _sql(run: Path, *statements: str) -> None:
    with closing(sqlite3.connect(run / "run.sqlite")) as db, db:
        for statement in statements:
            db.execute(statement)
    assert not (run / "run.sqlite-wal").exists()  # closed: everything is in the file


def _not_a_run(run: Path) -> None:
    shutil.rmtree(run)
    write(run, {"notes.txt": "hello"})


def _without_store(run: Path, garbage: bytes) -> None:
    (run / "run.sqlite").unlink()
    first = sorted((run / "trajectories").glob("*.jsonl"))[0]
    first.write_bytes(first.read_bytes() + garbage)


ALL = ("score", "report", "compare")
RUN_DAMAGE: dict[str, tuple[Damage, tuple[str, ...], tuple[str, ...]]] = {
    # name: (damage to a copy of a good run, commands that read it, needles)
    "missing": (shutil.rmtree, ALL, ("runs/bad",)),
    "not a run": (_not_a_run, ALL, ("runs/bad", "no run")),
    "garbage store": (
        lambda run: (run / "run.sqlite").write_bytes(b"no database, sorry\n" * 40),
        ALL,
        ("runs/bad/run.sqlite", "not a readable run store"),
    ),
    "store from a future toolplay": (
        lambda run: _sql(
            run,
            "UPDATE meta SET value = '99' WHERE key = 'schema_version'",
            "CREATE TABLE shiny_new_table (x)",
        ),
        ALL,
        ("runs/bad/run.sqlite", "schema 99"),
    ),
    "stored result fails its checksum": (
        lambda run: _sql(run, "UPDATE results SET score = replace(score, '1.0', '0.5')"),
        ALL,
        ("runs/bad/run.sqlite", "checksum"),
    ),
    "summary not JSON": (
        lambda run: (run / "summary.json").write_text("{not json", "utf-8"),
        ("report", "compare"),
        ("runs/bad/summary.json", "not readable JSON"),
    ),
    "config not UTF-8": (
        lambda run: (run / "config.json").write_bytes(b"\x00\xff"),
        ("report", "compare"),
        ("runs/bad/config.json",),
    ),
    "no store, a trajectory line garbled": (
        lambda run: _without_store(run, b"{oops\n"),
        ("report", "compare"),
        ("runs/bad/trajectories/", ".jsonl: line", "not a trajectory record"),
    ),
    "no store, a trajectory file binary": (
        lambda run: _without_store(run, b"\xff\xfe\x00"),
        ("report", "compare"),
        ("runs/bad/trajectories/", ".jsonl", "UTF-8"),
    ),
}
COMMAND_ARGS = {
    "score": ["score", "runs/bad"],
    "report": ["report", "runs/bad"],
    "compare": ["compare", "runs/good", "runs/bad", "--out", "cmp.html"],
}


@pytest.mark.parametrize("command", ALL)
@pytest.mark.parametrize("case", list(RUN_DAMAGE))
def test_unreadable_run_directories(
    toolplay_process: ToolplayProcess, workspace: Path, good_run: Path, case: str, command: str
) -> None:
    damage, commands, needles = RUN_DAMAGE[case]
    if command not in commands:
        pytest.skip(f"{command} does not read what this case damages")
    shutil.copytree(good_run, workspace / "runs/good")
    shutil.copytree(good_run, workspace / "runs/bad")
    damage(workspace / "runs/bad")
    refuse(toolplay_process, workspace, COMMAND_ARGS[command], *needles)


def test_score_rebuilds_a_summary_that_is_not_json(
    toolplay_process: ToolplayProcess, workspace: Path, good_run: Path
) -> None:
    """summary.json is derived from the store, so `score` repairs it rather than refusing."""
    shutil.copytree(good_run, workspace / "run")
    (workspace / "run/summary.json").write_text("{not json", "utf-8")
    result = toolplay_process("score", "run", cwd=workspace)
    assert result.code == 0 and result.stderr == "", result
    rebuilt = json.loads((workspace / "run/summary.json").read_text("utf-8"))
    assert rebuilt == json.loads((good_run / "summary.json").read_text("utf-8"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a directory whatever its mode")
@pytest.mark.parametrize("command", ALL)
def test_run_directory_without_read_permission(
    toolplay_process: ToolplayProcess, workspace: Path, good_run: Path, command: str
) -> None:
    shutil.copytree(good_run, workspace / "runs/bad")
    shutil.copytree(good_run, workspace / "runs/good")
    (workspace / "runs/bad").chmod(0o000)
    try:
        assert_refused(toolplay_process(*COMMAND_ARGS[command], cwd=workspace), "runs/bad")
    finally:
        (workspace / "runs/bad").chmod(0o755)


HUMAN_CASES: dict[str, tuple[str | bytes, tuple[str, ...]]] = {
    "one column": ("scenario_id,score\nquick_add_contact\n", ("human.csv", "line 2")),
    "score not a number": (
        "quick_add_contact,0.5\nquick_text_contact,high\n",
        ("human.csv", "line 2", "'high'"),
    ),
    "scenario twice": (
        "quick_add_contact,0.5\nquick_add_contact,1\n",
        ("human.csv", "line 2", "twice"),
    ),
    "empty": ("", ("human.csv", "no scores")),
    "binary": (b"\x00\x01\xfe\xff" * 20, ("human.csv", "not UTF-8")),
    "unknown scenario": (
        "quick_add_contact,0.5\nquick_add_kontact,1\n",
        ("human.csv", "'quick_add_kontact'"),
    ),
}


@pytest.mark.parametrize("case", list(HUMAN_CASES))
def test_compare_with_bad_human_scores(
    toolplay_process: ToolplayProcess, workspace: Path, good_run: Path, case: str
) -> None:
    content, needles = HUMAN_CASES[case]
    shutil.copytree(good_run, workspace / "run")
    write(workspace, {"human.csv": content})
    args = ["compare", "run", "--human", "human.csv", "--out", "cmp.html"]
    refuse(toolplay_process, workspace, args, *needles)


def test_human_scores_for_scenarios_a_limited_run_skipped_are_accepted(
    toolplay_process: ToolplayProcess, workspace: Path, good_run: Path
) -> None:
    """The refusal above is for ids no suite has, not for ones `--limit` left out."""
    shutil.copytree(good_run, workspace / "run")
    played = {e.stem.split(".")[0] for e in (good_run / "trajectories").glob("*.jsonl")}
    assert "quick_update_number" not in played  # in the quick suite, beyond --limit 2
    write(workspace, {"human.csv": "quick_add_contact,1\nquick_update_number,0.5\n"})
    result = toolplay_process("compare", "run", "--human", "human.csv", cwd=workspace)
    assert result.code == 0 and result.stderr == "", result


def test_compare_and_report_refuse_other_bad_arguments(
    toolplay_process: ToolplayProcess, workspace: Path, good_run: Path
) -> None:
    shutil.copytree(good_run, workspace / "run")
    (workspace / "taken").mkdir()
    cli = toolplay_process
    refuse(cli, workspace, ["compare", "run", "--human", "none.csv"], "none.csv", "cannot read")
    refuse(cli, workspace, ["compare", "run"], "two run directories")
    refuse(cli, workspace, ["compare"], "Missing argument", "compare --help")
    refuse(cli, workspace, ["compare", "run", "run", "--out", "taken"], "taken", "directory")
    refuse(cli, workspace, ["report", "run", "--out", "taken"], "taken", "directory")
    refuse(cli, workspace, ["report"], "Missing argument", "report --help")
    refuse(cli, workspace, ["score", "run", "run"], "unexpected extra argument")


# ---- option values -----------------------------------------------------------------------
OPTION_CASES: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "concurrency 0": (["--concurrency", "0"], ("--concurrency", "0")),
    "trials -1": (["--trials", "-1"], ("--trials", "-1")),
    "limit abc": (["--limit", "abc"], ("--limit", "integer")),
    "limit 0": (["--limit", "0"], ("--limit",)),
    "mode sideways": (["--mode", "sideways"], ("--mode", "'sideways'")),
    "augment nonsense": (["--augment", "nonsense"], ("--augment", "'nonsense'", "no_docs")),
    "python assistant not importable": (
        ["--assistant", "python:no.such:fn"],
        ("--assistant", "python:no.such:fn", "no"),
    ),
    "local model missing": (
        ["--assistant", "local:/missing.gguf"],
        ("--assistant", "/missing.gguf", "no such"),
    ),
    "unknown assistant": (["--assistant", "martian"], ("--assistant", "'martian'", "oracle")),
    "unknown user": (["--user", "martian"], ("--user", "'martian'", "scripted")),
    "base url not a URL": (
        ["--assistant", "openai:m", "--base-url", "notaurl"],
        ("--base-url", "'notaurl'"),
    ),
    "base url without host": (["--base-url", "http://"], ("--base-url", "'http://'")),
    "option without =": (["--option", "novalue"], ("--option", "'novalue'", "KEY=VALUE")),
    "option of the wrong type": (["--option", "max_retries=lots"], ("--max-retries", "'lots'")),
    "option without a flag": (["--option", "retry_jitter=-1"], ("--option retry_jitter", "-1")),
    "option key typo": (
        ["--option", "locl_n_ctx=4096"],
        ("--option", "unknown option 'locl_n_ctx'", "local_n_ctx", "max_rounds"),
    ),
    "timeout 0": (["--timeout", "0"], ("--timeout", "0")),
    "max calls per turn 0": (["--max-calls-per-turn", "0"], ("--max-calls-per-turn",)),
    "unknown option": (["--colour", "blue"], ("--colour",)),
    "out is a file": (["--out", "a-file"], ("a-file", "not a directory")),
    "cache is not a cache": (["--cache", "a-file"], ("a-file", "cache")),
    "unknown executor": (["--executor", "dask"], ("--executor", "dask")),
    "ray address without ray": (["--ray-address", "127.0.0.1:1"], ("--ray-address", "ray")),
    "ray workers without ray": (["--ray-workers", "2"], ("--ray-workers", "--executor ray")),
    "ray workers 0": (["--executor", "ray", "--ray-workers", "0"], ("--ray-workers",)),
}


@pytest.mark.parametrize("case", list(OPTION_CASES))
def test_run_refuses_bad_option_values(
    toolplay_process: ToolplayProcess, workspace: Path, case: str
) -> None:
    extra, needles = OPTION_CASES[case]
    write(workspace, {"a-file": "some notes, not a run\n"})
    out = [] if "--out" in extra else ["--out", "out"]
    refuse(toolplay_process, workspace, ["run", "--suite", "quick", *out, *extra], *needles)


def test_other_commands_refuse_bad_option_values(
    toolplay_process: ToolplayProcess, workspace: Path
) -> None:
    cli = toolplay_process
    refuse(cli, workspace, ["validate", "--mode", "sideways"], "--mode", "'sideways'", "static")
    refuse(cli, workspace, ["suites", "extra"], "unexpected extra argument")
    refuse(cli, workspace, ["tools", "--suite"], "--suite", "requires an argument")
    refuse(cli, workspace, ["frobnicate"], "No such command 'frobnicate'")


# ---- resuming ----------------------------------------------------------------------------
def test_resume_refusals_leave_the_run_untouched(
    toolplay_process: ToolplayProcess, workspace: Path, good_run: Path
) -> None:
    shutil.copytree(good_run, workspace / "run")
    cli = toolplay_process
    run = ["run", "--suite", "quick", "--out", "run"]
    refuse(
        cli,
        workspace,
        [*run, "--limit", "3", "--resume"],
        "run: --resume with a different configuration",
        "limit: stored 2, now 3",
    )
    refuse(
        cli,
        workspace,
        [*run, "--limit", "2", "--resume", "--assistant", "no-call"],
        "different configuration",
        "assistant: stored 'oracle', now 'no-call'",
    )
    refuse(
        cli,
        workspace,
        [*run, "--limit", "2", "--resume", "--temperature", "0.5"],
        "different configuration",
        "assistant_model.temperature: stored None, now 0.5",
    )
    refuse(cli, workspace, [*run, "--limit", "2"], "run: already holds a run", "--resume")
    # (--resume on a folder without a run starts it: tests/e2e/test_run_defaults.py)
    (workspace / "run/run.sqlite").write_bytes(b"garbage " * 100)
    refuse(
        cli,
        workspace,
        [*run, "--limit", "2", "--resume"],
        "run/run.sqlite",
        "not a readable run store",
    )


# ---- the plumbing ------------------------------------------------------------------------
def test_debug_shows_the_traceback(toolplay_process: ToolplayProcess, workspace: Path) -> None:
    write(workspace, {"bad.yaml": "id: [1\n"})
    result = toolplay_process("--debug", "validate", "--suite", "bad.yaml", cwd=workspace)
    assert result.code not in (0, None)
    assert "Traceback" in result.stderr and "ScenarioError" in result.stderr


def test_the_installed_command_behaves_the_same(
    toolplay_process: ToolplayProcess, workspace: Path
) -> None:
    """The console script, started the ordinary way, gives the same answers."""
    write(workspace, {"bad.yaml": "id: [1\n"})
    script = Path(sys.executable).with_name("toolplay")
    for args in (["validate", "--suite", "bad.yaml"], ["run", "--limit", "x"], ["score", "nope"]):
        plain = subprocess.run(
            [str(script), *args],
            cwd=workspace,
            capture_output=True,
            text=True,
            env=ToolplayProcess.environment(),
            timeout=120,
            check=False,
        )
        warm = toolplay_process(*args, cwd=workspace)
        assert (plain.returncode, plain.stdout, plain.stderr) == (
            warm.code,
            warm.stdout,
            warm.stderr,
        )
        assert_refused(warm)


def test_a_terminal_sees_only_the_error_line(
    toolplay_process: ToolplayProcess, workspace: Path
) -> None:
    """On a terminal the progress bar is live; a run refused before it starts shows none."""
    write(workspace, {"bad.yaml": "id: [1\n"})
    leader, follower = pty.openpty()
    try:
        terminal = Path(os.ttyname(follower))
        result = toolplay_process(
            "run", "--suite", "bad.yaml", "--out", "out", cwd=workspace, stderr=terminal
        )
        shown, visible = drain_terminal(leader)
    finally:
        os.close(leader)
        os.close(follower)
    assert result.code == 2 and result.stdout == ""
    visible = visible.strip()
    assert visible.splitlines() == [visible] and visible.startswith("error: bad.yaml: "), shown
    assert not (workspace / "out").exists()
