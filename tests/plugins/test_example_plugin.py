"""A plugin outside the package extends toolplay through the public API only.

`tests/plugin_example/toolplay_counter` adds a domain, a scorer with its metric, evidence
model and viewer, success rule and summary section, a mode with its own setting, and a
suite: everything a built-in method has. It is loaded three ways: `--plugin` on the command
line, `build_catalog([...])` in Python, and, in a real process, as an installed package's
entry point (a `.dist-info` folder on the path, which is what `pip install` leaves behind),
with no flag at all.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toolplay.catalog import CatalogError, build_catalog
from toolplay.cli import app

EXAMPLE = Path(__file__).resolve().parents[1] / "plugin_example"
PLUGIN = "toolplay_counter"


@pytest.fixture(autouse=True)
def on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLE))


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.output


def summary(out: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return data


def test_the_plugin_runs_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "oracle"
    code, output = cli(
        "--plugin", PLUGIN, "run", "--suite", "counter", "--mode", "impatient", "--out", str(out)
    )
    assert code == 0, output
    result = summary(out)
    assert result["mode"] == "impatient" and result["completed"] == 2
    assert result["metrics"] == {"target_hit_rate": 1.0}
    line = (out / "trajectories" / "count_tea.t0.jsonl").read_text().splitlines()[-1]
    assert json.loads(line)["evidence"] == {
        "kind": "counter_target",
        "counter": "tea",
        "final": 3,
        "target": 3,
        "increments": 1,
        "validation_problems": [],
    }
    floor = tmp_path / "floor"
    code, output = cli(
        "--plugin",
        PLUGIN,
        "run",
        "--suite",
        "counter",
        "--assistant",
        "no-call",
        "--out",
        str(floor),
    )
    assert code == 0 and summary(floor)["metrics"] == {"target_hit_rate": 0.0}
    code, output = cli("--plugin", PLUGIN, "validate", "--suite", "counter")
    assert code == 0 and "2 scenario(s)" in output, output
    code, output = cli("--plugin", PLUGIN, "tools", "--suite", "counter")
    assert code == 0 and "increment_counter" in output and "read_counter" in output
    before = (out / "summary.json").read_bytes()
    code, output = cli("--plugin", PLUGIN, "score", str(out))
    assert code == 0, output
    assert (out / "summary.json").read_bytes() == before


def test_the_plugins_importer_reads_files_and_refuses_bad_lines(tmp_path: Path) -> None:
    good = tmp_path / "drinks.txt"
    good.write_text("water=2\njuice=1\n", encoding="utf-8")
    out = tmp_path / "run"
    code, output = cli("--plugin", PLUGIN, "run", "--suite", f"counts:{good}", "--out", str(out))
    assert code == 0, output
    assert summary(out)["completed"] == 2 and summary(out)["metrics"] == {"target_hit_rate": 1.0}
    bad = tmp_path / "bad.txt"
    bad.write_text("water=2\njuice=lots\n", encoding="utf-8")
    code, output = cli("--plugin", PLUGIN, "validate", "--suite", f"counts:{bad}")
    assert code != 0 and f"{bad}:2" in output and "expected name=number" in output
    code, output = cli("--plugin", PLUGIN, "suites")
    assert code == 0 and "counts:FILE" in output


def test_a_run_remembers_its_plugins_for_rescoring(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = cli("--plugin", PLUGIN, "run", "--suite", "counter", "--out", str(out))
    assert code == 0, output
    code, output = cli("score", str(out))  # no --plugin: the stored config names it
    assert code == 0, output
    assert summary(out)["metrics"] == {"target_hit_rate": 1.0}


def test_the_plugin_works_from_python() -> None:
    catalog = build_catalog([PLUGIN], installed=False)
    assert "counter_target" in catalog.scorers and "impatient" in catalog.modes
    suite = catalog.load_suite("counter")
    assert [s.id for s in suite.scenarios] == ["count_coffee", "count_tea"]
    assert catalog.setup(suite.scenarios[0]).offered.names() == [
        "read_counter",
        "increment_counter",
    ]


def test_registering_a_name_twice_is_refused_naming_the_plugin(tmp_path: Path) -> None:
    clash = tmp_path / "clash.py"
    clash.write_text(
        textwrap.dedent("""
        from toolplay.scenarios import Suite

        def register(catalog):
            catalog.add_suite("quick", lambda argument, context: Suite("x", []))
    """)
    )
    with pytest.raises(
        CatalogError, match=r"plugin .*clash\.py: suite 'quick' is registered twice"
    ):
        build_catalog([str(clash)], installed=False)
    code, output = cli("--plugin", str(tmp_path / "missing.py"), "suites")
    assert code != 0 and "missing.py: no such file" in output


def test_an_unknown_evaluation_is_refused_at_load(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "id: s\nworld: {domains: [counter]}\nevaluation: counter_targt\n", encoding="utf-8"
    )
    code, output = cli("--plugin", PLUGIN, "validate", "--suite", str(scenario))
    assert code != 0
    assert "evaluation" in output and "unknown evaluation 'counter_targt'" in output
    assert "counter_target" in output  # the known ones are listed


def test_an_installed_plugin_needs_no_flag(tmp_path: Path) -> None:
    """A `.dist-info` with an entry point, as `pip install` leaves it: found by a new process."""
    site = tmp_path / "site"
    info = site / "toolplay_counter-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toolplay-counter\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[toolplay.plugins]\ncounter = toolplay_counter:register\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), str(EXAMPLE), os.environ.get("PYTHONPATH", "")]),
        "COLUMNS": "200",
    }
    out = tmp_path / "run"
    command = [sys.executable, "-m", "toolplay.cli", "run", "--suite", "counter", "--out", str(out)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert summary(out)["metrics"] == {"target_hit_rate": 1.0}
    listed = subprocess.run(
        [sys.executable, "-m", "toolplay.cli", "suites"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert listed.returncode == 0 and "counter" in listed.stdout


ONE_BY_ONE = '''
import json


def agent(messages, tools):
    """Count one at a time: one increment of the tea counter per call, three in all."""
    done = sum(1 for m in messages if m["role"] == "tool")
    if done < 3:
        call = {"name": "increment_counter", "arguments": json.dumps({"name": "tea", "by": 1})}
        return {"content": None, "tool_calls": [{"id": f"c{done}", "function": call}]}
    return "Done."
'''


def one_by_one(tmp_path: Path) -> str:
    """An assistant (python:FILE:agent) that increments the tea counter three times, by one."""
    path = tmp_path / "one_by_one.py"
    path.write_text(ONE_BY_ONE, encoding="utf-8")
    return f"python:{path}:agent"


def trajectory_evidence(out: Path, scenario: str) -> dict[str, Any]:
    line = (out / "trajectories" / f"{scenario}.t0.jsonl").read_text().splitlines()[-1]
    evidence: dict[str, Any] = json.loads(line)["evidence"]
    return evidence


def test_the_modes_own_setting_reaches_it_and_is_recorded(tmp_path: Path) -> None:
    default = tmp_path / "default"
    args = ["--plugin", PLUGIN, "run", "--suite", "counter", "--mode", "impatient"]
    code, output = cli(*args, "--out", str(default))
    assert code == 0, output
    config = json.loads((default / "config.json").read_text())
    assert config["play"]["patience"] == 2  # recorded with its default
    agent = one_by_one(tmp_path)
    capped = tmp_path / "capped"
    code, output = cli(*args, "--assistant", agent, "--out", str(capped))
    assert code == 0, output
    assert trajectory_evidence(capped, "count_tea")["final"] == 2  # cut after two calls
    patient = tmp_path / "patient"
    code, output = cli(*args, "--assistant", agent, "--option", "patience=5", "--out", str(patient))
    assert code == 0, output
    assert json.loads((patient / "config.json").read_text())["play"]["patience"] == 5
    assert trajectory_evidence(patient, "count_tea")["final"] == 3
    code, output = cli(*args, "--option", "patience=0", "--out", str(tmp_path / "bad"))
    assert code == 2
    assert "--option patience: input should be greater than or equal to 1 (got 0)" in output
    assert not (tmp_path / "bad").exists()


def test_the_scorers_success_rule_evidence_view_and_section(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = cli(
        "--plugin", PLUGIN, "run", "--suite", "counter", "--mode", "impatient",
        "--assistant", one_by_one(tmp_path), "--option", "patience=5", "--out", str(out),
    )  # fmt: skip
    assert code == 0, output
    result = summary(out)
    # tea hit by three increments: a score of 1, but no success by the plugin's rule;
    # coffee (target 1) counted no coffee at all
    assert result["metrics"] == {"target_hit_rate": 0.5}
    assert trajectory_evidence(out, "count_tea") == {
        "kind": "counter_target",
        "counter": "tea",
        "final": 3,
        "target": 3,
        "increments": 3,
        "validation_problems": [],
    }
    assert result["trials"]["pass_hat_k"] == {"1": 0.0}
    assert result["sections"] == {"counter_target": {"above": 0, "below": 1}}
    assert "misses.below" in output  # the section's rows in the terminal summary
    code, output = cli("--plugin", PLUGIN, "report", str(out))
    assert code == 0, output
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "misses.below" in html
    entries = {e["id"]: e for e in report_entries(html)}
    assert entries["count_tea"]["evidence"]["tables"] == [
        {
            "title": "Counter against its target",
            "columns": ["counter", "final", "target", "increments"],
            "rows": [["tea", "3", "3", "3"]],
        }
    ]
    assert entries["count_tea"]["evidence"]["notes"] == ["hit"]


def report_entries(html: str) -> list[dict[str, Any]]:
    """The trajectory viewer's records in a report page."""
    from toolplay.report._payload import unpack_payload

    match = re.search(r'id="run-data">(.*?)</script>', html, re.S)
    assert match is not None
    entries: list[dict[str, Any]] = unpack_payload(json.loads(match.group(1)))["entries"]
    return entries
