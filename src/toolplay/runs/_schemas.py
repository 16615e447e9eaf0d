"""The published JSON Schemas of what toolplay reads and writes.

`summary.json` (`RunSummary`), each line of a trajectory file (`TrajectoryLine`), `config.json`
(`RunConfig`), a scenario file entry (`Scenario`) and an errata file (`ErrataFile`); the
analyses publish theirs beside these (`toolplay.analysis.ANALYSIS_SCHEMAS`: `audit.json`).
`toolplay schema NAME` prints one; the repository keeps them under `docs/schema/` (a test
checks they are current), so other tools can rely on them without importing toolplay.

What the catalog's components add is part of the schema: the settings its modes and scorers
declare (config.json's `play` and `scoring`), each scorer's evidence model (a score line's
`evidence`: one of them, or a plugin's free evidence of another kind) and section model
(summary.json's `sections`). A schema is made for a catalog: the published ones for the
built-ins, `toolplay schema` for the built-ins and the plugins it loads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from toolplay.catalog import Catalog, build_catalog
from toolplay.runs._config import RunConfig
from toolplay.runs._lines import TRAJECTORY_LINE
from toolplay.runs._summary import RunSummary
from toolplay.scenarios import ErrataFile, Scenario
from toolplay.scoring import Evidence, evidence_kind


def _components(schema: dict[str, Any], name: str, models: Iterable[type[BaseModel]]) -> None:
    """Add the fields of `models` to the object `$defs[name]` of `schema` (no other fields)."""
    target = schema["$defs"][name]
    properties = dict(target.get("properties", {}))
    for model in dict.fromkeys(models):
        part = model.model_json_schema(ref_template="#/$defs/{model}")
        schema["$defs"].update(part.pop("$defs", {}))
        properties.update(part.get("properties", {}))
    target["properties"] = dict(sorted(properties.items()))
    target["additionalProperties"] = False


def _config(catalog: Catalog) -> dict[str, Any]:
    schema = RunConfig.model_json_schema()
    _components(schema, "PlaySettings", catalog.play_settings.values())
    _components(schema, "ScoringSettings", catalog.scoring_settings.values())
    return schema


def _defs(schema: dict[str, Any], model: type[BaseModel]) -> dict[str, str]:
    """Put `model`'s schema (and its own definitions) into `schema`'s; a reference to it."""
    part = model.model_json_schema(ref_template="#/$defs/{model}")
    schema["$defs"].update(part.pop("$defs", {}))
    schema["$defs"][model.__name__] = part
    return {"$ref": f"#/$defs/{model.__name__}"}


def _lines(catalog: Catalog) -> dict[str, Any]:
    schema = TRAJECTORY_LINE.json_schema()
    models = [s.evidence for s in catalog.scorers.values() if s.evidence is not None]
    refs = [_defs(schema, model) for model in dict.fromkeys(models)]
    free = Evidence.model_json_schema(ref_template="#/$defs/{model}")
    free["title"] = "CustomEvidence"
    free["description"] = "Evidence of a scorer that declares no model: `kind` plus any fields."
    kinds = sorted(evidence_kind(model) for model in models)
    free["properties"]["kind"]["not"] = {"enum": kinds}
    schema["$defs"]["CustomEvidence"] = free
    schema["$defs"].pop("Evidence", None)
    evidence = {"oneOf": [*refs, {"$ref": "#/$defs/CustomEvidence"}]}
    score = schema["$defs"]["ScoreLine"]["properties"]
    score["evidence"] = {
        "anyOf": [evidence, {"type": "null"}],
        "default": None,
        "title": "Evidence",
    }
    return schema


def _summary(catalog: Catalog) -> dict[str, Any]:
    schema = RunSummary.model_json_schema()
    found = {name: s.section for name, s in sorted(catalog.scorers.items()) if s.section}
    sections = schema["properties"]["sections"]
    described = {
        "type": "object",
        "properties": {name: _defs(schema, model) for name, model in found.items()},
        "additionalProperties": {"type": "object"},
    }
    sections["anyOf"] = [described, {"type": "null"}]
    return schema


SCHEMAS: dict[str, Callable[[Catalog], dict[str, Any]]] = {
    "summary": _summary,
    "trajectory-line": _lines,
    "config": _config,
    "scenario": lambda catalog: Scenario.model_json_schema(),
    "errata": lambda catalog: ErrataFile.model_json_schema(),
}
"""Schema name -> a function producing its JSON Schema for a catalog."""


def json_schema(
    name: str,
    catalog: Catalog | None = None,
    more: Mapping[str, Callable[[], dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The JSON Schema published under `name` (see `SCHEMAS`, and `more` beside it), for
    `catalog`'s components (default: the built-ins').

    Raises:
        KeyError: naming the known schemas.
    """
    extra = dict(more or {})
    known = [*SCHEMAS, *extra]
    if name not in known:
        raise KeyError(f"unknown schema {name!r}; known: {', '.join(known)}")
    if name in extra:
        schema = dict(extra[name]())
    else:
        found = catalog if catalog is not None else build_catalog(installed=False)
        schema = dict(SCHEMAS[name](found))
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
