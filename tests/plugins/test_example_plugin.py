"""A plugin outside the package extends toolplay through the public API only.

`tests/plugin_example/toolplay_counter` adds a domain, a scorer with its metric, a mode and a
suite. It is loaded three ways: `--plugin` on the command line, `build_catalog([...])` in
Python, and, in a real process, as an installed package's entry point (a `.dist-info` folder
on the path, which is what `pip install` leaves behind), with no flag at all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

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
