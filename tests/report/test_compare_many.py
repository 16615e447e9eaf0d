"""Many runs at 80 columns: numbered, paged columns with every name and value whole; and the
per-dialogue agreement of named runs pairs each assistant with itself across methods."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolplay.analysis import compare_runs
from toolplay.cli import app

PLUGIN = str(Path(__file__).with_name("slots_plugin.py"))
ASSISTANTS = ("oracle", "no-call", "first-1", "first-2")


def cli(*args: str, columns: int = 80) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output + repr(result.exception)
    return result.output


@pytest.fixture(scope="module")
def sixteen(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """8 assistants (4 kinds x 2 scenario counts) under 2 methods, named METHOD:ASSISTANT."""
    root = tmp_path_factory.mktemp("many")
    named = []
    for assistant in ASSISTANTS:
        for limit in (8, 10):
            for mode in ("static", "dynamic"):
                out = root / f"{mode}-{assistant}-{limit}"
                cli(
                    "--plugin",
                    PLUGIN,
                    "run",
                    "--suite",
                    "autode",
                    "--mode",
                    mode,
                    "--assistant",
                    assistant,
                    "--limit",
                    str(limit),
                    "--out",
                    str(out),
                )
                named.append(f"{mode}:{assistant}-{limit}={out}")
    return named


def test_named_runs_pair_each_assistant_across_methods(sixteen: list[str]) -> None:
    comparison = compare_runs([Path(n) for n in sixteen])
    assert len(comparison.runs) == 16
    assert len(comparison.pairs) == 8  # not 120
    for pair in comparison.pairs:
        assert pair.left.startswith("static:") and pair.right.startswith("dynamic:")
        assert pair.left.split(":", 1)[1] == pair.right.split(":", 1)[1]


def test_sixteen_runs_stay_readable_at_80_columns(sixteen: list[str]) -> None:
    output = cli("compare", *sixteen)
    lines = output.splitlines()
    assert all(len(line) <= 80 for line in lines if line.startswith(("┃", "│", "┏", "└")))
    assert "…" not in output  # no name or value is cut
    # every run is named whole in the legend, once, under its number
    labels = [n.split("=", 1)[0] for n in sixteen]
    legend = lines[lines.index("Runs (numbered below)") + 1 :][:16]
    assert [line.split() for line in legend] == [
        [str(i + 1), name] for i, name in enumerate(labels)
    ]
    # the pages cover every run once, and each page's values are each run's own
    pages = [line for line in lines if line.startswith("Runs side by side, runs ")]
    assert len(pages) >= 2
    covered = []
    for page in pages:
        span = page.split("runs ")[-1].split(" of ")[0]
        first, _, last = span.partition("-")
        covered += list(range(int(first), int(last or first) + 1))
    assert covered == list(range(1, 17))
    f1 = []
    for name in sixteen:
        path = Path(name.split("=", 1)[1])
        f1.append(json.loads((path / "summary.json").read_text())["metrics"]["slot_f1"])
    rows = [line for line in lines if line.startswith("│ slot_f1 ")]
    shown = [cell.strip() for row in rows for cell in row.split("│")[2:-1]]
    assert shown == [f"{v:.3f}" for v in f1]


def test_a_few_runs_keep_their_names_as_columns(sixteen: list[str]) -> None:
    output = cli("compare", *sixteen[:2], columns=120)
    assert "Runs (numbered below)" not in output
    header = next(line for line in output.splitlines() if "static:oracle-8" in line)
    assert "dynamic:oracle-8" in header
