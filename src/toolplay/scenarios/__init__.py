"""Scenarios and suites: the model, file loading with clear errors, and suite resolution."""

from toolplay.scenarios._autode import autode_suite
from toolplay.scenarios._autode_data import import_autode_data
from toolplay.scenarios._context import LoadContext
from toolplay.scenarios._errors import ScenarioError
from toolplay.scenarios._lazy import LazyScenarios, ScenarioEntry
from toolplay.scenarios._legacy import SETTERS
from toolplay.scenarios._load import (
    check_against_catalog,
    load_scenario_file,
    load_scenario_paths,
    parse_scenario,
)
from toolplay.scenarios._milestone_spec import (
    START,
    ChangeConstraint,
    Constraint,
    FlowConstraint,
    GuardrailConstraint,
    MessageConstraint,
    Milestone,
    StateConstraint,
    ToolAlternative,
    ToolCallConstraint,
    checked_tables,
    milestone_edges,
    milestone_ids,
    milestone_references,
    similarity_spec,
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
from toolplay.scenarios._setup import ScenarioSetup, setup_scenario
from toolplay.scenarios._slot_label import SlotLabel, slot_label
from toolplay.scenarios._state_variants import STATE_VARIANTS, VariantSkipped
from toolplay.scenarios._suites import (
    DATA,
    Suite,
    SuiteLoader,
    SuiteSource,
    folder_suite,
    resolve_suite,
    variant_suite,
)
from toolplay.scenarios._toolsandbox import prompts as toolsandbox_prompts
from toolplay.scenarios._toolsandbox import toolsandbox_suite
from toolplay.scenarios._tooltalk import import_tooltalk, load_databases, tooltalk_turns
from toolplay.scenarios._variant_suite import index_path, variant_index
from toolplay.scenarios._variants import (
    AUGMENTATION_SETTINGS,
    COMPOSE,
    SCRAMBLE_BASE,
    SkippedVariant,
    VariantSet,
    augmentation_of,
    augmentation_variant,
    check_augmentation,
    expand_variants,
    state_variant,
)

__all__ = [
    "toolsandbox_prompts",
    "toolsandbox_suite",
    "LazyScenarios",
    "ScenarioEntry",
    "index_path",
    "variant_index",
    "autode_suite",
    "import_autode_data",
    "SlotLabel",
    "slot_label",
    "AUGMENTATION_SETTINGS",
    "COMPOSE",
    "SCRAMBLE_BASE",
    "STATE_VARIANTS",
    "SkippedVariant",
    "VariantSet",
    "VariantSkipped",
    "augmentation_of",
    "augmentation_variant",
    "check_augmentation",
    "expand_variants",
    "state_variant",
    "import_tooltalk",
    "load_databases",
    "tooltalk_turns",
    "SETTERS",
    "START",
    "ChangeConstraint",
    "Constraint",
    "FlowConstraint",
    "GuardrailConstraint",
    "MessageConstraint",
    "Milestone",
    "StateConstraint",
    "ToolAlternative",
    "ToolCallConstraint",
    "milestone_edges",
    "milestone_ids",
    "checked_tables",
    "milestone_references",
    "similarity_spec",
    "DATA",
    "LoadContext",
    "ScenarioSetup",
    "SuiteLoader",
    "SuiteSource",
    "folder_suite",
    "resolve_suite",
    "setup_scenario",
    "variant_suite",
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
    "check_against_catalog",
    "load_scenario_file",
    "load_scenario_paths",
    "parse_scenario",
]
