"""The audit of AutoDE's published result files: what docs/audit.md reports is what it finds.

The four complete files in ../shared/autode/results are replayed (no model), audited with the
floor and the ceiling the audit plays itself, and re-scored against the errata it proposes;
the tables between the `autode-audit` and `autode-version-1` markers of docs/audit.md must
hold exactly these numbers.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AUTODE = ROOT / ".." / "shared" / "autode"
DOCS = ROOT / "docs" / "audit.md"
FILES = {
    "u_gpt35_a_codellama13b_oasst_1round": "dynamic",
    "u_llama7b_a_codellama13b_oasst_4rounds": "dynamic",
    "a_llama70b_substitute_static_force_5rounds": "static",
    "a_zephyr_7b_alpha_static_vllm_1round": "static",
}


def documented(marker: str) -> list[list[str]]:
    text = DOCS.read_text(encoding="utf-8")
    block = text.split(f"<!-- {marker}:start")[1].split(f"<!-- {marker}:end")[0]
    rows = [line for line in block.splitlines() if line.startswith("| ")][2:]
    return [[cell.strip().strip("`") for cell in row.strip("|").split("|")] for row in rows]


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory, cli: Callable[..., str]) -> dict[str, Path]:
    if not (AUTODE / "results").is_dir():
        pytest.skip(f"AutoDE data not found at {AUTODE.resolve()} (../shared/autode)")
    root = tmp_path_factory.mktemp("autode")
    runs = {}
    for name, mode in FILES.items():
        out = root / name
        cli(
            "run",
            "--suite",
            f"autode-data:{AUTODE.resolve()}",
            "--mode",
            mode,
            "--out",
            str(out),
            "--assistant",
            f"replay:{AUTODE.resolve()}/results/{name}.jsonl",
        )
        runs[name] = out
    return runs


def test_the_documented_audit_is_what_the_audit_finds(
    replayed: dict[str, Path], tmp_path: Path, cli: Callable[..., str]
) -> None:
    out = tmp_path / "audit"
    printed = cli("audit", *map(str, replayed.values()), "--out", str(out), columns=80)
    data = json.loads((out / "audit.json").read_text())
    found = {flag: str(count) for flag, count in data["flag_counts"].items()}
    found["flagged (any flag)"] = f"{data['flagged']} of {data['scenarios']}"
    found["proposed errata"] = str(len(data["proposed_errata"]))
    assert dict(documented("autode-audit")) == found
    assert [(r["role"], r["played"]) for r in data["runs"]].count(("floor", True)) == 2
    assert all(i["floor"] == 0.0 and i["ceiling"] == 1.0 for i in data["items"])
    slots = [s for i in data["items"] for s in i["slots"] if s["correct"] == 0]
    assert len(slots) == 39 and sum(s["slot"] == "time" for s in slots) == 11
    assert "Most suspect scenarios (20 of 77 flagged)" in printed
    assert all(len(line) <= 80 for line in printed.splitlines())
    # re-scored against the proposals as version 1: the documented F1s
    table = {row[0]: (row[1], row[2]) for row in documented("autode-version-1")}
    assert set(table) == set(FILES)
    for name, run in replayed.items():
        copy = tmp_path / name
        shutil.copytree(run, copy)
        before = json.loads((copy / "summary.json").read_text())["metrics"]["slot_f1"]
        cli(
            "score",
            str(copy),
            "--errata",
            str(out / "errata.proposed.yaml"),
            "--suite-version",
            "1",
        )
        after = json.loads((copy / "summary.json").read_text())["metrics"]["slot_f1"]
        assert (f"{before:.4f}", f"{after:.4f}") == table[name]
    again = tmp_path / "audit-v1"
    cli("audit", *(str(tmp_path / n) for n in FILES), "--out", str(again))
    counts = json.loads((again / "audit.json").read_text())["flag_counts"]
    text = DOCS.read_text(encoding="utf-8")
    assert re.search(
        rf"finds {counts['failed_by_all']} dialogues failed by all and "
        rf"{counts['slot_never_filled']} with a slot never\s+filled",
        text,
    )
