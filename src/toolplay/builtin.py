"""toolplay's own domains, suites, modes, scorers and roles, registered as any plugin's are.

This is the model for a plugin: a `register(catalog)` function calling `Catalog.add_*`.
"""

from __future__ import annotations

from pathlib import Path

from toolplay.catalog import Catalog
from toolplay.conversation import builtin_modes
from toolplay.roles import builtin_assistant_kinds, builtin_user_kinds
from toolplay.scenarios import (
    LoadContext,
    Suite,
    autode_suite,
    folder_suite,
    import_autode_data,
    import_tooltalk,
    toolsandbox_suite,
    variant_suite,
)
from toolplay.scoring import builtin_scorers
from toolplay.tools import SANDBOX_DOMAINS, builtin_domains

QUICK = "A handful of small scenarios for smoke runs."
SANDBOX = (
    "ToolSandbox-style stateful scenarios scored by milestones and minefields: base "
    "scenarios plus generated world-state variants, each under 8 tool augmentations."
)
TOOLSANDBOX = (
    "apple/ToolSandbox's own scenarios (commit 165848b), exported offline with the clock "
    "pinned: 91 bases x the paper's 8 augmentation settings, with toolplay's reference "
    "solutions (Apple's licence beside the data)."
)
AUTODE = "AutoDE-style user scripts over the sandbox tools, scored by slot precision/recall/F1."
AUTODE_DATA = (
    "An AutoDE checkout (datasets/data_v1_2.jsonl, API_list.xlsx): the official benchmark, "
    "played under AutoDE's protocol; ?required=marked for the sheet's own required slots."
)


def _autode_builtin(argument: str, context: LoadContext) -> Suite:
    return autode_suite(context)


def _autode_scripts(argument: str, context: LoadContext) -> Suite:
    return autode_suite(context, Path(argument))


def register(catalog: Catalog) -> None:
    """Register every built-in part of toolplay."""
    for domain in builtin_domains():
        catalog.add_domain(domain)
    catalog.add_domain_group("sandbox", SANDBOX_DOMAINS)
    for scorer in builtin_scorers():
        catalog.add_scorer(scorer)
    for mode in builtin_modes():
        catalog.add_mode(mode)
    for kind in builtin_assistant_kinds():
        catalog.add_assistant(kind)
    for kind in builtin_user_kinds():
        catalog.add_user(kind)
    catalog.add_suite("quick", folder_suite("quick", QUICK), QUICK)
    catalog.add_suite("sandbox", variant_suite("sandbox", SANDBOX), SANDBOX)
    catalog.add_suite("autode", _autode_builtin, AUTODE)
    catalog.add_suite("toolsandbox", toolsandbox_suite, TOOLSANDBOX)
    catalog.add_importer(
        "tooltalk",
        import_tooltalk,
        "ToolTalk data folder (databases/ plus one folder of conversations per split).",
        "DIR",
    )
    catalog.add_importer(
        "autode",
        _autode_scripts,
        "A file or folder of AutoDE-style user scripts (format: toolplay.scenarios._autode).",
        "PATH",
    )
    catalog.add_importer("autode-data", import_autode_data, AUTODE_DATA, "DIR")
