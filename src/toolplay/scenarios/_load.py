"""Load scenarios from YAML or JSON files and check them against the tool catalog.

A file holds one scenario (a mapping), a list of scenarios, or a mapping with a `scenarios`
list. Every problem is reported as a `ScenarioError` naming the file, the field path and the
reason; nothing is loaded from a file with an error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._milestone_checks import check_milestone_spec
from toolplay.scenarios._model import Scenario
from toolplay.tools import Registry, RegistryError, api_only_tool

SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")


def load_scenario_file(path: Path, context: LoadContext) -> list[Scenario]:
    """Parse and validate every scenario in one file."""
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(source, None, f"cannot read file ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError(source, None, "file is not UTF-8 text") from exc
    if not text.strip():
        raise ScenarioError(source, None, "the file is empty (expected one or more scenarios)")
    data = _parse(text, path)
    items = data.get("scenarios") if isinstance(data, dict) and "scenarios" in data else data
    single = isinstance(items, dict)
    if single:
        items = [items]
    if not isinstance(items, list):
        raise ScenarioError(source, None, "expected a scenario mapping or a list of scenarios")
    scenarios = []
    for position, item in enumerate(items):
        prefix = "" if single else f"scenarios[{position}]."
        scenarios.append(parse_scenario(item, source, context, prefix))
    return scenarios


def parse_scenario(data: Any, source: str, context: LoadContext, prefix: str = "") -> Scenario:
    """Validate one scenario mapping, naming `source` and the field path in errors."""
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = prefix + ".".join(str(p) for p in first["loc"]) or None
        more = f" (and {len(exc.errors()) - 1} more problem(s))" if len(exc.errors()) > 1 else ""
        raise ScenarioError(source, field, first["msg"] + more) from exc
    check_against_catalog(scenario, source, context, prefix)
    return scenario


def check_against_catalog(
    scenario: Scenario, source: str, context: LoadContext, prefix: str = ""
) -> Registry:
    """Check the evaluation method, domains, API-only tools, tables and tool names.

    Returns:
        The scenario's registry: its domains' tools plus its API-only tools.
    """
    known = context.evaluations
    if known is not None and scenario.evaluation not in known:
        raise ScenarioError(
            source,
            prefix + "evaluation",
            f"unknown evaluation {scenario.evaluation!r}; known: {', '.join(sorted(known))}",
        )
    try:
        registry = context.tools.registry(scenario.world.domains)
    except RegistryError as exc:
        raise ScenarioError(source, prefix + "world.domains", str(exc)) from exc
    for i, schema in enumerate(scenario.tools.api_only):
        try:
            api_only_tool(schema)
        except RegistryError as exc:
            raise ScenarioError(source, f"{prefix}tools.api_only[{i}]", str(exc)) from exc
    if scenario.tools.api_only:
        try:
            registry = context.tools.registry(scenario.world.domains, scenario.tools.api_only)
        except RegistryError as exc:
            raise ScenarioError(source, prefix + "tools.api_only", str(exc)) from exc
    for table in scenario.world.tables:
        if table not in registry.tables:
            raise ScenarioError(
                source,
                f"{prefix}world.tables.{table}",
                f"no such table in domains {scenario.world.domains}; "
                f"known: {sorted(registry.tables)}",
            )
        columns = set(registry.tables[table].columns)
        for row_number, row in enumerate(scenario.world.tables[table]):
            extra = set(row) - columns
            if extra:
                raise ScenarioError(
                    source,
                    f"{prefix}world.tables.{table}[{row_number}]",
                    f"unknown column(s) {sorted(extra)}; columns are {sorted(columns)}",
                )
    for key in ("allow", "deny", "distractors"):
        names = getattr(scenario.tools, key) or []
        unknown = [n for n in names if n not in registry]
        if unknown:
            raise ScenarioError(source, f"{prefix}tools.{key}", f"unknown tool(s) {unknown}")
    for t, turn in enumerate(scenario.reference):
        for c, call in enumerate(turn.calls):
            if call.name not in registry:
                raise ScenarioError(
                    source,
                    f"{prefix}reference[{t}].calls[{c}].name",
                    f"unknown tool {call.name!r}",
                )
    tables = {name: schema.columns for name, schema in registry.tables.items()}
    tools = {name: set(spec.arguments.model_fields) for name, spec in registry.tools.items()}
    for key in ("milestones", "minefields"):
        check_milestone_spec(getattr(scenario, key), tables, tools, source, prefix + key)
    return registry


def load_scenario_paths(paths: Iterable[Path], context: LoadContext) -> list[Scenario]:
    """Load files and folders (recursively, sorted); duplicate ids are refused.

    A folder without any scenario file is refused too: it is almost always a wrong path, and
    a run over nothing would report an empty success.
    """
    scenarios: list[Scenario] = []
    seen: dict[str, str] = {}
    for path in paths:
        files = (
            sorted(p for p in path.rglob("*") if p.suffix in SCENARIO_SUFFIXES)
            if path.is_dir()
            else [path]
        )
        if not files:
            suffixes = ", ".join(f"*{s}" for s in SCENARIO_SUFFIXES)
            raise ScenarioError(str(path), None, f"no scenario files ({suffixes}) in this folder")
        for file in files:
            for scenario in load_scenario_file(file, context):
                if scenario.id in seen:
                    raise ScenarioError(
                        str(file),
                        "id",
                        f"duplicate id {scenario.id!r} (also in {seen[scenario.id]})",
                    )
                seen[scenario.id] = str(file)
                scenarios.append(scenario)
    return scenarios


def _parse(text: str, path: Path) -> Any:
    import yaml  # noqa: PLC0415 (start-up time: imported on first use)

    try:
        if path.suffix == ".json":
            return json.loads(text)
        # libyaml's safe loader when PyYAML has it (about 10x faster), else the pure-Python one
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except json.JSONDecodeError as exc:
        raise ScenarioError(
            str(path), None, f"invalid JSON at line {exc.lineno}: {exc.msg}"
        ) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ScenarioError(str(path), None, f"invalid YAML{where}: {problem}") from exc
