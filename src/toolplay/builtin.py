"""The built-ins: toolplay's own parts, then the three published methods, each registered the
way a plugin registers (`register(catalog)` calling `Catalog.add_*`).

toolplay's own parts are its presentation (whose default prompts are the ToolSandbox
reference's texts, data the ToolSandbox method ships), the simulated tool domains, the `state`
scorer, the `dynamic` and `static` modes, the harness's roles (`replay:PATH` reads what the
methods register as replay formats) and the `quick` and `sandbox` suites.
"""

from __future__ import annotations

from toolplay.catalog import Catalog
from toolplay.conversation import builtin_modes
from toolplay.domains import SANDBOX_DOMAINS, builtin_domains
from toolplay.methods import autode, toolsandbox, tooltalk
from toolplay.roles import (
    PromptTexts,
    RoleKind,
    builtin_assistant_kinds,
    builtin_user_kinds,
    prompt_texts_of,
    toolplay_presentation,
)
from toolplay.scenarios import folder_suite, variant_suite
from toolplay.scoring import builtin_scorers
from toolplay.users import builtin_user_checks

QUICK = "A handful of small scenarios for smoke runs."
SANDBOX = (
    "ToolSandbox-style stateful scenarios scored by milestones and minefields: base "
    "scenarios plus generated world-state variants, each under 8 tool augmentations."
)


def _default_texts() -> PromptTexts:
    """Toolplay's default prompts: the ToolSandbox reference's agent prompt, user instruction
    and demonstrations (data the ToolSandbox method ships).
    """
    return prompt_texts_of(toolsandbox.toolsandbox_prompts())


def _replay_kind(catalog: Catalog) -> RoleKind:
    """`replay:PATH`: saved outputs of an assistant, read by the format the methods register."""
    return RoleKind(
        "replay",
        catalog.replay,
        "Saved outputs read back: ToolTalk's predictions (executed again), AutoDE's results "
        "files (read as recordings), or a plugin's format.",
        "replay:PATH",
    )


def register_core(catalog: Catalog) -> None:
    """Register toolplay's own parts (see the module docstring)."""
    catalog.add_presentation(toolplay_presentation(_default_texts))
    for domain in builtin_domains():
        catalog.add_domain(domain)
    catalog.add_domain_group("sandbox", SANDBOX_DOMAINS)
    for scorer in builtin_scorers():
        catalog.add_scorer(scorer)
    for mode in builtin_modes():
        catalog.add_mode(mode)
    for kind in (*builtin_assistant_kinds(), _replay_kind(catalog)):
        catalog.add_assistant(kind)
    for kind in builtin_user_kinds():
        catalog.add_user(kind)
    for check in builtin_user_checks():
        catalog.add_user_check(check)
    catalog.add_suite("quick", folder_suite("quick", QUICK), QUICK)
    catalog.add_suite("sandbox", variant_suite("sandbox", SANDBOX), SANDBOX)


def register(catalog: Catalog) -> None:
    """Register toolplay's own parts, then the three published methods."""
    register_core(catalog)
    toolsandbox.register(catalog)
    tooltalk.register(catalog)
    autode.register(catalog)
