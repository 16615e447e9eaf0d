"""The published JSON Schemas are current, and real run files validate against them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from toolplay.analysis import ANALYSIS_SCHEMAS
from toolplay.cli import app
from toolplay.runs import SCHEMAS, json_schema

DOCS = Path(__file__).resolve().parents[1] / "docs" / "schema"


def published(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((DOCS / f"{name}.schema.json").read_text())
    return data


@pytest.mark.parametrize("name", sorted([*SCHEMAS, *ANALYSIS_SCHEMAS]))
def test_the_files_in_docs_are_the_current_schemas(name: str) -> None:
    assert published(name) == json_schema(name, more=ANALYSIS_SCHEMAS), (
        f"docs/schema/{name}.schema.json is stale: toolplay schema {name} > it"
    )


def test_the_cli_prints_the_same_schema() -> None:
    result = CliRunner().invoke(app, ["schema", "summary"])
    assert result.exit_code == 0 and json.loads(result.output) == json_schema("summary")


@pytest.mark.parametrize(
    "args",
    [
        ["--suite", "quick"],
        ["--suite", "autode", "--limit", "3", "--trials", "2"],
        ["--suite", "sandbox", "--limit", "2", "--augment", "distractors_3"],
    ],
    ids=["milestones", "slots-with-trials", "augmented"],
)
def test_a_real_run_validates_against_the_published_schemas(
    args: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    jsonschema.validate(json.loads((out / "summary.json").read_text()), published("summary"))
    jsonschema.validate(json.loads((out / "config.json").read_text()), published("config"))
    line_schema = published("trajectory-line")
    for path in (out / "trajectories").glob("*.jsonl"):
        for line in path.read_text().splitlines():
            jsonschema.validate(json.loads(line), line_schema)


def test_a_broken_summary_does_not_validate() -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"suite": "quick", "metrics": {"score": "high"}}, published("summary"))
