"""`slot_matching` as a typed scoring setting: given with `--option`, stored with the run, used
again by `toolplay score`, part of what `--resume` must match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from toolplay.cli import app

PLUGIN = str(Path(__file__).with_name("alternatives_plugin.py"))


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["--plugin", PLUGIN, *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def run(out: Path, *args: str) -> dict[str, Any]:
    code, output = cli(
        "run", "--suite", "autode", "--assistant", "alternatives", "--out", str(out), *args
    )
    assert code == 0, output
    return read(out / "summary.json")


def test_lenient_matching_is_stored_with_the_run_and_rescored_alike(tmp_path: Path) -> None:
    exact = run(tmp_path / "exact")
    assert exact["metrics"]["slot_f1"] < 1.0 and "scoring" not in exact
    assert read(tmp_path / "exact" / "config.json")["scoring"] == {"slot_matching": None}
    lenient_dir = tmp_path / "lenient"
    lenient = run(lenient_dir, "--option", "slot_matching=lenient")
    assert lenient["metrics"]["slot_f1"] == 1.0
    assert lenient["scoring"] == {"slot_matching": "lenient"}
    assert read(lenient_dir / "config.json")["scoring"] == {"slot_matching": "lenient"}
    line = json.loads(
        next((lenient_dir / "trajectories").glob("*.jsonl")).read_text().splitlines()[-1]
    )
    assert line["type"] == "score" and line["evidence"]["matching"] == "lenient"
    code, output = cli("score", str(lenient_dir))
    assert code == 0, output
    assert read(lenient_dir / "summary.json")["metrics"]["slot_f1"] == 1.0
    # --resume alone keeps the stored setting; another one given explicitly is refused
    code, output = cli("run", "--out", str(lenient_dir), "--resume")
    assert code == 0, output
    assert read(lenient_dir / "summary.json")["scoring"] == {"slot_matching": "lenient"}
    code, output = cli(
        "run", "--suite", "autode", "--assistant", "alternatives", "--out", str(lenient_dir),
        "--resume", "--option", "slot_matching=exact",
    )  # fmt: skip
    assert code != 0 and "scoring.slot_matching: stored 'lenient', now 'exact'" in output


def test_an_unknown_matching_is_refused_naming_the_option(tmp_path: Path) -> None:
    code, output = cli(
        "run", "--suite", "autode", "--out", str(tmp_path / "x"), "--option", "slot_matching=fuzzy"
    )
    assert code != 0 and not (tmp_path / "x").exists()
    assert "--option slot_matching: input should be 'exact' or 'lenient'" in output
