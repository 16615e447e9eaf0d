"""toolplay's own domains, suites, modes, scorers and roles, and the three published methods.

This is the model for a plugin: a `register(catalog)` function calling `Catalog.add_*`; each
method in `toolplay.methods` registers itself the same way.
"""

from __future__ import annotations

from pathlib import Path

from toolplay.catalog import Catalog
from toolplay.clients import RoleOptionError
from toolplay.conversation import builtin_modes
from toolplay.domains import SANDBOX_DOMAINS, builtin_domains
from toolplay.methods import autode, toolsandbox, tooltalk
from toolplay.roles import (
    PromptTexts,
    RoleKind,
    RoleRequest,
    builtin_assistant_kinds,
    builtin_user_kinds,
    prompt_texts_of,
    toolplay_presentation,
)
from toolplay.scenarios import folder_suite, variant_suite
from toolplay.scoring import builtin_scorers

QUICK = "A handful of small scenarios for smoke runs."
SANDBOX = (
    "ToolSandbox-style stateful scenarios scored by milestones and minefields: base "
    "scenarios plus generated world-state variants, each under 8 tool augmentations."
)
RESULTS_SUFFIX = ".jsonl"
"""`replay:` of a file with this suffix reads an AutoDE results file."""


def _build_replay(request: RoleRequest) -> object:
    """`replay:DIR` (ToolTalk predictions) or `replay:FILE.jsonl` (an AutoDE results file)."""
    if not request.argument:
        raise RoleOptionError("replay needs a folder or a results file: --assistant replay:DIR")
    path = Path(request.argument).expanduser()
    if path.suffix == RESULTS_SUFFIX and not path.is_dir():
        return autode.build_results_replay(request)
    return tooltalk.build_replay_assistant(request)


REPLAY = RoleKind(
    "replay",
    _build_replay,
    "Saved predictions in ToolTalk's output layout, executed again; or a published "
    "AutoDE results file, read as a recording.",
    "replay:DIR|FILE.jsonl",
)


def _default_texts() -> PromptTexts:
    """Toolplay's default prompts: the ToolSandbox reference's agent prompt, user instruction
    and demonstrations (data the ToolSandbox method ships).
    """
    return prompt_texts_of(toolsandbox.toolsandbox_prompts())


def register(catalog: Catalog) -> None:
    """Register every built-in part of toolplay, then the three published methods."""
    catalog.add_presentation(toolplay_presentation(_default_texts))
    for domain in builtin_domains():
        catalog.add_domain(domain)
    catalog.add_domain_group("sandbox", SANDBOX_DOMAINS)
    for scorer in builtin_scorers():
        catalog.add_scorer(scorer)
    for mode in builtin_modes():
        catalog.add_mode(mode)
    for kind in (*builtin_assistant_kinds(), REPLAY):
        catalog.add_assistant(kind)
    for kind in builtin_user_kinds():
        catalog.add_user(kind)
    catalog.add_suite("quick", folder_suite("quick", QUICK), QUICK)
    catalog.add_suite("sandbox", variant_suite("sandbox", SANDBOX), SANDBOX)
    toolsandbox.register(catalog)
    tooltalk.register(catalog)
    autode.register(catalog)
