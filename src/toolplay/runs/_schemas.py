"""The published JSON Schemas of what toolplay reads and writes.

`summary.json` (`RunSummary`), each line of a trajectory file (`TrajectoryLine`), `config.json`
(`RunConfig`), a scenario file entry (`Scenario`) and an errata file (`ErrataFile`); the
analyses publish theirs beside these (`toolplay.analysis.ANALYSIS_SCHEMAS`: `audit.json`).
`toolplay schema NAME` prints one; the repository keeps them under `docs/schema/` (a test
checks they are current), so other tools can rely on them without importing toolplay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolplay.runs._config import RunConfig
from toolplay.runs._lines import TRAJECTORY_LINE
from toolplay.runs._summary import RunSummary
from toolplay.scenarios import ErrataFile, Scenario

SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "summary": RunSummary.model_json_schema,
    "trajectory-line": TRAJECTORY_LINE.json_schema,
    "config": RunConfig.model_json_schema,
    "scenario": Scenario.model_json_schema,
    "errata": ErrataFile.model_json_schema,
}
"""Schema name -> a function producing its JSON Schema."""


def json_schema(
    name: str, more: Mapping[str, Callable[[], dict[str, Any]]] | None = None
) -> dict[str, Any]:
    """The JSON Schema published under `name` (see `SCHEMAS`, and `more` beside it).

    Raises:
        KeyError: naming the known schemas.
    """
    known = {**SCHEMAS, **(more or {})}
    if name not in known:
        raise KeyError(f"unknown schema {name!r}; known: {', '.join(known)}")
    schema = dict(known[name]())
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
