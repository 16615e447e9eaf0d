"""The texts a presentation's default prompts are made of (data, never typed into code).

toolplay's own presentation uses the ToolSandbox reference's agent prompt, user-simulator
instruction and default demonstrations by default; the ToolSandbox method ships them
(`toolplay.methods.toolsandbox`, exported from the reference repository) and the built-ins hand
them over as `PromptTexts` when they register the presentation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PromptTexts:
    """Texts a presentation's default prompts are made of."""

    agent_system_prompt: str = ""
    """The assistant's base system prompt."""
    user_instruction: str = ""
    """What a model-driven user is told before its goal (ToolSandbox's way)."""
    demonstrations: Sequence[Any] = ()
    """Default demonstration dialogues for a model-driven user (dicts with `messages`)."""


def prompt_texts_of(data: Mapping[str, Any]) -> PromptTexts:
    """`PromptTexts` from a mapping shaped as ToolSandbox's exported `prompts.json`."""
    demos = data.get("demonstrations", {})
    return PromptTexts(
        agent_system_prompt=str(data.get("agent_system_prompt", "")),
        user_instruction=str(data.get("user_instruction", "")),
        demonstrations=tuple(demos.get("default", ()) if isinstance(demos, Mapping) else ()),
    )
