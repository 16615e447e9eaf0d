"""ToolSandbox (Lu et al., 2024): milestone/minefield scoring and the reference's own scenarios.

See README.md beside this file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolplay.methods.toolsandbox._evidence import (
    ConstraintValue,
    MilestoneEvidence,
    MilestoneMatch,
)
from toolplay.methods.toolsandbox._presentation import (
    ToolSandboxPresentation,
    toolsandbox_presentation,
)
from toolplay.methods.toolsandbox._scorer import milestones_scorer
from toolplay.methods.toolsandbox._scoring import aggregate_milestones, score_milestones
from toolplay.methods.toolsandbox._suite import prompts as toolsandbox_prompts
from toolplay.methods.toolsandbox._suite import toolsandbox_suite
from toolplay.methods.toolsandbox._user_facts import TOOLSANDBOX_FACTS, withheld_in
from toolplay.roles import PromptTexts, prompt_texts_of

if TYPE_CHECKING:
    from toolplay.catalog import Catalog

__all__ = [
    "ToolSandboxPresentation",
    "register",
    "ConstraintValue",
    "MilestoneEvidence",
    "MilestoneMatch",
    "aggregate_milestones",
    "score_milestones",
    "toolsandbox_prompts",
    "toolsandbox_suite",
    "withheld_in",
]


TOOLSANDBOX = (
    "apple/ToolSandbox's own scenarios (commit 165848b), exported offline with the clock "
    "pinned: all 129 bases x the paper's 8 augmentation settings (1,032), the RapidAPI tools "
    "answered by simulated services, with toolplay's reference solutions (Apple's licence "
    "beside the data)."
)


def _texts() -> PromptTexts:
    return prompt_texts_of(toolsandbox_prompts())


def register(catalog: Catalog) -> None:
    """Register ToolSandbox's scorer (`milestones`), its presentation (`toolsandbox`: what
    the reference sends a model), the `toolsandbox` suite (whose default it is), and what its
    users are told to withhold (for the user-error checks).
    """
    catalog.add_scorer(milestones_scorer())
    catalog.add_presentation(toolsandbox_presentation(_texts))
    catalog.add_suite("toolsandbox", toolsandbox_suite, TOOLSANDBOX)
    catalog.add_user_facts(TOOLSANDBOX_FACTS)
