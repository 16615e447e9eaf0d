"""The full `sandbox` suite: ≥ 1,000 scenarios from ≥ 130 bases, all passing validation; the
no-call assistant scores 0 wherever doing nothing is wrong."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from support import load_suite
from toolplay.cli import app
from toolplay.scenarios import AUGMENTATION_SETTINGS, STATE_VARIANTS, Scenario

ID = re.compile(r"^(?P<base>[^~@]+)(~(?P<state>[a-z_]+))?(@(?P<aug>[a-z_0-9+]+))?$")
INSUFFICIENT = "insufficient_information"


def test_validate_passes_on_the_whole_suite() -> None:
    result = CliRunner().invoke(app, ["validate", "--suite", "sandbox"])
    assert result.exit_code == 0, result.output[-3000:]
    checked = int(re.search(r"ok: (\d+) scenario", result.output).group(1))  # type: ignore[union-attr]
    suite = load_suite("sandbox")
    assert checked == len(suite) >= 1000
    assert int(suite.extra["bases"]) >= 130  # type: ignore[call-overload]


def test_ids_base_ids_categories_and_augmentation_grid() -> None:
    suite = load_suite("sandbox")
    grid: Counter[tuple[str, str | None]] = Counter()
    plain: dict[str, Scenario] = {s.id: s for s in suite.scenarios if s.augmentation is None}
    for scenario in suite.scenarios:
        match = ID.match(scenario.id)
        assert match, scenario.id
        assert scenario.base_id == match["base"]
        assert scenario.augmentation == match["aug"]
        assert match["state"] is None or match["state"] in STATE_VARIANTS
        assert scenario.metadata.get("state_variant") == match["state"]
        if match["state"]:
            assert "state_dependency" in scenario.categories
            assert "multiple_tool_call" in scenario.categories
        source = plain[scenario.id.split("@")[0]]
        assert scenario.categories == source.categories
        assert scenario.reference == source.reference
        assert scenario.milestones == source.milestones
        grid[(scenario.id.split("@")[0], match["aug"])] += 1
    # every base and world-state variant exists exactly once under each of the 8 settings
    augmentations = [None if a == "none" else a for a in AUGMENTATION_SETTINGS]
    assert grid == Counter({(p, a): 1 for p in plain for a in augmentations})
    states = Counter(s.metadata.get("state_variant") for s in plain.values())
    assert all(states[name] > 0 for name in STATE_VARIANTS), states


def _scores(out: Path) -> dict[str, dict[str, Any]]:
    scores = {}
    for path in (out / "trajectories").iterdir():
        last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
        assert last["type"] == "score", path
        scores[last["scenario_id"]] = last
    return scores


def test_no_call_scores_zero_on_plain_and_scrambled_variants(tmp_path: Path) -> None:
    """The oracle's 1.0 everywhere is `test_validate_passes_on_the_whole_suite`."""
    out = tmp_path / "no-call"
    args = ["run", "--suite", "sandbox", "--assistant", "no-call", "--out", str(out)]
    args += ["--augment", "none", "--augment", "distractors_3+scrambled_names"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output[-3000:]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    suite = {s.id: s for s in load_suite("sandbox").scenarios}
    scores = _scores(out)
    assert len(scores) == summary["completed"] == summary["scenarios"]
    assert set(summary["by_augmentation"]) == {"none", "distractors_3+scrambled_names"}
    nonzero = {
        scenario_id: round(record["score"], 3)
        for scenario_id, record in scores.items()
        if record["score"] != 0.0 and INSUFFICIENT not in suite[scenario_id].categories
    }
    assert nonzero == {}


@pytest.mark.slow
def test_no_call_scores_zero_on_every_variant(tmp_path: Path) -> None:
    out = tmp_path / "no-call"
    args = ["run", "--suite", "sandbox", "--assistant", "no-call", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output[-3000:]
    suite = {s.id: s for s in load_suite("sandbox").scenarios}
    nonzero = {
        scenario_id: record["score"]
        for scenario_id, record in _scores(out).items()
        if record["score"] != 0.0 and INSUFFICIENT not in suite[scenario_id].categories
    }
    assert nonzero == {}
