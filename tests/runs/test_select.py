"""`--augment`: it selects a suite's augmentation variants, or applies augmentations to a
suite without them; `by_augmentation` in the summary of real runs; resume and re-scoring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from support import expand_variants, load_suite
from toolplay.cli import app
from toolplay.runs import SelectionError, carried_augmentations, select_scenarios
from toolplay.scenarios import AUGMENTATION_SETTINGS, Suite

CLOCK = "2025-03-14T16:20:00-04:00"
BASES = [
    {
        "id": "fx_euros",
        "categories": ["single_tool_call", "single_user_turn", "canonicalization"],
        "world": {"domains": ["sandbox"], "clock": CLOCK},
        "tools": {"allow": ["convert_currency", "unit_conversion"]},
        "user": {"script": ["What are 40 euros in dollars?"]},
        "reference": [
            {
                "user": "What are 40 euros in dollars?",
                "calls": [
                    {
                        "name": "convert_currency",
                        "arguments": {
                            "amount": 40,
                            "from_currency_code": "EUR",
                            "to_currency_code": "USD",
                        },
                    }
                ],
                "reply": "About 43 dollars.",
            }
        ],
        "milestones": [
            {
                "constraints": [
                    {
                        "kind": "tool_call",
                        "tool": "convert_currency",
                        "arguments": {"from_currency_code": "EUR", "to_currency_code": "USD"},
                    }
                ]
            }
        ],
    },
    {
        "id": "km_to_miles",
        "categories": ["single_tool_call", "single_user_turn", "canonicalization"],
        "world": {"domains": ["sandbox"], "clock": CLOCK},
        "tools": {"allow": ["unit_conversion"]},
        "user": {"script": ["How many miles is a 10k?"]},
        "reference": [
            {
                "user": "How many miles is a 10k?",
                "calls": [
                    {
                        "name": "unit_conversion",
                        "arguments": {"amount": 10, "from_unit": "kilometers", "to_unit": "miles"},
                    }
                ],
                "reply": "About 6.2 miles.",
            }
        ],
        "milestones": [
            {
                "constraints": [
                    {"kind": "tool_call", "tool": "unit_conversion", "arguments": {"amount": 10}}
                ]
            }
        ],
    },
]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "bases"
    path.mkdir()
    (path / "bases.yaml").write_text(yaml.safe_dump({"scenarios": BASES}), encoding="utf-8")
    return path


def test_a_suite_with_variants_is_selected_from(folder: Path) -> None:
    plain = load_suite(str(folder))
    suite = Suite("variants", expand_variants(plain.scenarios).scenarios, source=str(folder))
    assert carried_augmentations(suite) == list(AUGMENTATION_SETTINGS)
    assert len(select_scenarios(suite, None)) == len(suite)
    chosen = select_scenarios(suite, None, ["distractors_3+scrambled_names"])
    assert [s.id for s in chosen] == [
        "fx_euros@distractors_3+scrambled_names",
        "fx_euros~wifi_off@distractors_3+scrambled_names",
        "fx_euros~low_battery@distractors_3+scrambled_names",
        "km_to_miles@distractors_3+scrambled_names",
    ]
    # the old name of a scramble says where it went (the paper's table puts it on 3 distractors)
    with pytest.raises(SelectionError, match=r"use --augment distractors_3\+scrambled_names"):
        select_scenarios(suite, None, ["scrambled_names"])
    unaugmented = select_scenarios(suite, None, ["none"])
    assert [s.id for s in unaugmented] == [
        "fx_euros",
        "fx_euros~wifi_off",
        "fx_euros~low_battery",
        "km_to_miles",
    ]
    both = select_scenarios(suite, None, ["distractors_3+no_arg_types", "none"])
    assert [s.id for s in both] == [s.id for s in unaugmented] + [
        f"{s.id}@distractors_3+no_arg_types" for s in unaugmented
    ]  # the suite's order, not the order of the flags
    assert [s.id for s in select_scenarios(suite, 2, ["none"])] == ["fx_euros", "fx_euros~wifi_off"]
    with pytest.raises(SelectionError, match=r"'no_docs' is not one of them.*--suite"):
        select_scenarios(suite, None, ["no_docs"])


def test_a_suite_without_variants_gets_them_applied(folder: Path) -> None:
    suite = load_suite(str(folder))
    assert carried_augmentations(suite) == []
    chosen = select_scenarios(suite, None, ["none", "no_docs", "scrambled_names+no_docs"])
    assert [s.id for s in chosen] == [
        "fx_euros",
        "km_to_miles",
        "fx_euros@no_docs",
        "km_to_miles@no_docs",
        "fx_euros@scrambled_names+no_docs",
        "km_to_miles@scrambled_names+no_docs",
    ]
    assert [s.augmentation for s in chosen] == [None, None, "no_docs", "no_docs"] + [
        "scrambled_names+no_docs"
    ] * 2
    assert all(s.base_id in (None, "fx_euros", "km_to_miles") for s in chosen)
    assert chosen[2].base_id == "fx_euros" and chosen[2].categories == suite.scenarios[0].categories
    assert len(select_scenarios(suite, 3, ["no_docs", "none"])) == 3
    with pytest.raises(SelectionError, match="unknown augmentation 'shuffle'"):
        select_scenarios(suite, None, ["shuffle"])


COUNT_TOOLS = '''
def act(messages, tools, context):
    """Answers with the number and names of the tools it is shown."""
    return f"{len(tools)} tools: " + ",".join(sorted(t["function"]["name"] for t in tools))
'''


def _run(args: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    out = Path(args[args.index("--out") + 1])
    return dict(json.loads((out / "summary.json").read_text(encoding="utf-8")))


def _replies(out: Path) -> dict[str, str]:
    replies = {}
    for path in (out / "trajectories").iterdir():
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        header = records[0]
        texts = [r["content"] for r in records if r.get("sender") == "assistant" and r["content"]]
        replies[header["scenario_id"]] = texts[0]
    return replies


def test_applied_augmentations_are_applied_once_and_summarised(
    folder: Path, tmp_path: Path
) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(COUNT_TOOLS, encoding="utf-8")
    out = tmp_path / "run"
    args = ["run", "--suite", str(folder), "--assistant", f"python:{agent}:act"]
    args += ["--out", str(out), "--augment", "none", "--augment", "distractors_3"]
    args += ["--augment", "scrambled_names"]
    summary = _run(args)
    replies = _replies(out)
    assert replies["fx_euros"] == "2 tools: convert_currency,unit_conversion"
    assert replies["fx_euros@distractors_3"].startswith("5 tools: ")
    assert replies["km_to_miles@distractors_3"].startswith("4 tools: ")
    scrambled = replies["fx_euros@scrambled_names"]
    assert scrambled == "2 tools: mathutil_1,mathutil_2"  # generic <domain>_<number> names
    groups = summary["by_augmentation"]
    assert isinstance(groups, dict) and set(groups) == {"none", "distractors_3", "scrambled_names"}
    assert groups["none"]["scenarios"] == 2
    assert set(groups["none"]) == set(summary["metrics"]) | {"scenarios", "trials"}
    assert all(g["similarity"] == 0.0 for g in groups.values())
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    assert config["augment"] == ["none", "distractors_3", "scrambled_names"]
    result = CliRunner().invoke(app, ["score", str(out)])
    assert result.exit_code == 0, result.output
    rescored = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert rescored["by_augmentation"] == groups


def test_oracle_run_over_selected_sandbox_variants_is_perfect_per_augmentation(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    args = ["run", "--suite", "sandbox", "--augment", "distractors_all", "--limit", "12"]
    summary = _run([*args, "--out", str(out)])
    assert summary["completed"] == 12
    assert summary["by_augmentation"] == {
        "distractors_all": {
            "similarity": 1.0,
            "milestone_similarity": 1.0,
            "perfect_rate": 1.0,
            "turn_count": summary["metrics"]["turn_count"],
            "scenarios": 12,
            "trials": 12,
        }
    }
    resumed = _run([*args, "--out", str(out), "--resume"])
    assert resumed["by_augmentation"] == summary["by_augmentation"]
