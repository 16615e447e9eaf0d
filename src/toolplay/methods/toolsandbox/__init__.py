"""ToolSandbox (Lu et al., 2024): milestone/minefield scoring and the reference's own scenarios.

See README.md beside this file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolplay.methods.toolsandbox._presentation import (
    ToolSandboxPresentation,
    toolsandbox_presentation,
)
from toolplay.methods.toolsandbox._scorer import milestones_scorer
from toolplay.methods.toolsandbox._scoring import aggregate_milestones, score_milestones
from toolplay.methods.toolsandbox._suite import prompts as toolsandbox_prompts
from toolplay.methods.toolsandbox._suite import toolsandbox_suite
from toolplay.roles import PromptTexts, prompt_texts_of

if TYPE_CHECKING:
    from toolplay.catalog import Catalog

__all__ = [
    "ToolSandboxPresentation",
    "register",
    "aggregate_milestones",
    "score_milestones",
    "toolsandbox_prompts",
    "toolsandbox_suite",
]


TOOLSANDBOX = (
    "apple/ToolSandbox's own scenarios (commit 165848b), exported offline with the clock "
    "pinned: 91 bases x the paper's 8 augmentation settings, with toolplay's reference "
    "solutions (Apple's licence beside the data)."
)


def _texts() -> PromptTexts:
    return prompt_texts_of(toolsandbox_prompts())


def register(catalog: Catalog) -> None:
    """Register ToolSandbox's scorer (`milestones`), its presentation (`toolsandbox`: what
    the reference sends a model) and the `toolsandbox` suite (whose default it is).
    """
    catalog.add_scorer(milestones_scorer())
    catalog.add_presentation(toolsandbox_presentation(_texts))
    catalog.add_suite("toolsandbox", toolsandbox_suite, TOOLSANDBOX)
