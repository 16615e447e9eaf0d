"""The assistant's system prompt: the ToolSandbox reference's, optionally with context.

By default the assistant gets the reference's one-sentence instruction, read from the data the
exporter took from the reference repository (`toolsandbox_prompts()["agent_system_prompt"]`),
with nothing added: relative dates must be resolved with the tools (`get_current_timestamp`),
as in the paper. `PlaySettings.prompt_context` (`--option prompt_context=true`) appends the
scenario's current time, location and user (toolplay's former default, which makes relative
dates easier). A run's own prompt (`PlaySettings.system_prompt`) replaces the instruction.
"""

from __future__ import annotations

from toolplay.methods.toolsandbox import toolsandbox_prompts
from toolplay.scenarios import Scenario


def default_system_prompt() -> str:
    """The reference's agent system prompt (data exported from the reference repository)."""
    return str(toolsandbox_prompts()["agent_system_prompt"])


def system_prompt(scenario: Scenario, base: str | None = None, context: bool = False) -> str:
    """`base` (or the reference's prompt), then, with `context`, the scenario's time,
    location and user.
    """
    lines = [base if base is not None else default_system_prompt()]
    if not context:
        return lines[0]
    meta = scenario.metadata
    lines.append(
        f"Current time: {scenario.world.clock.strftime('%A %Y-%m-%d %H:%M:%S %Z').strip()}."
    )
    if meta.get("location"):
        lines.append(f"User location: {meta['location']}.")
    if meta.get("username"):
        lines.append(f"Username: {meta['username']}.")
    return "\n".join(lines)


def scenario_prompt(scenario: Scenario, base: str | None = None, context: bool = False) -> str:
    """The scenario's own prompt (`metadata["system_prompt"]`, e.g. ToolTalk's) when no `base`
    is given, else `system_prompt`: static and dynamic play of a scenario show the same one.
    """
    own = scenario.metadata.get("system_prompt")
    if base is None and isinstance(own, str) and own:
        return own
    return system_prompt(scenario, base, context)
