"""`toolplay run --category`: the run plan's category filter, as Inspect tasks have it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from toolplay.catalog import build_catalog
from toolplay.runs import RunConfig, resolve_run

CATALOG = build_catalog(installed=False)


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app_(), list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.output


def app_() -> Any:
    from toolplay.cli import app

    return app


def test_categories_choose_the_scenarios_before_the_limit() -> None:
    plan = resolve_run(
        RunConfig(suite="quick", categories=["multiple_tool_call"]), CATALOG, intent="play"
    )
    ids = [s.id for s in plan.scenarios]
    assert ids and all("multiple_tool_call" in s.categories for s in plan.scenarios)
    limited = resolve_run(
        RunConfig(suite="quick", categories=["multiple_tool_call"], limit=1), CATALOG, intent="play"
    )
    assert [s.id for s in limited.scenarios] == ids[:1]
    both = RunConfig(suite="sandbox", categories=["state_dependency"], augment=["none"], limit=3)
    chosen = resolve_run(both, CATALOG, intent="play").scenarios
    assert len(chosen) == 3
    assert all("state_dependency" in s.categories and not s.augmentation for s in chosen)


def test_run_takes_category_records_it_and_resume_keeps_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = cli(
        "run", "--suite", "quick", "--category", "state_dependency", "--out", str(out)
    )
    assert code == 0, output
    config = json.loads((out / "config.json").read_text())
    assert config["categories"] == ["state_dependency"] and config["version"] == 7
    assert json.loads((out / "summary.json").read_text())["scenarios"] == 1
    code, output = cli("run", "--resume", "--out", str(out))
    assert code == 0, output
    code, output = cli("run", "--resume", "--out", str(out), "--category", "single_tool_call")
    assert code == 2 and "categories: stored ['state_dependency'], now ['single_tool_call']" in (
        " ".join(output.split())
    )


def test_an_unknown_category_is_refused_listing_the_suites(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = cli("run", "--suite", "quick", "--category", "nope", "--out", str(out))
    assert code == 2
    text = " ".join(output.split())
    assert "suite 'quick': no scenario matches category nope" in text
    assert "state_dependency" in text and not out.exists()
