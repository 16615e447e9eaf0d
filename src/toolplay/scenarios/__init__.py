"""Scenarios and suites: the model, file loading with clear errors, and suite resolution."""

from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._load import (
    check_against_catalog,
    load_scenario_file,
    load_scenario_paths,
    parse_scenario,
)
from toolplay.scenarios._model import (
    Demonstration,
    Evaluation,
    ReferenceCall,
    ReferenceTurn,
    Scenario,
    ToolSelection,
    UserSide,
    WorldSpec,
)
from toolplay.scenarios._suites import BUILTIN, IMPORTERS, Suite, load_suite
from toolplay.scenarios._world import build_world, scenario_registry

__all__ = [
    "BUILTIN",
    "IMPORTERS",
    "Demonstration",
    "Evaluation",
    "ReferenceCall",
    "ReferenceTurn",
    "Scenario",
    "ScenarioError",
    "Suite",
    "ToolSelection",
    "UserSide",
    "WorldSpec",
    "build_world",
    "check_against_catalog",
    "load_scenario_file",
    "load_scenario_paths",
    "load_suite",
    "parse_scenario",
    "scenario_registry",
]
