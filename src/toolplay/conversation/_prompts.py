"""The assistant's default system prompt: ToolSandbox's minimal one plus scenario metadata."""

from __future__ import annotations

from toolplay.scenarios import Scenario

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant that can use tools. "
    "Don't make assumptions about what values to plug into functions. "
    "Ask for clarification if a user request is ambiguous."
)


def system_prompt(scenario: Scenario, base: str | None = None) -> str:
    """`base` (or the default) followed by the scenario's location, time and user."""
    lines = [base if base is not None else DEFAULT_SYSTEM_PROMPT]
    meta = scenario.metadata
    lines.append(
        f"Current time: {scenario.world.clock.strftime('%A %Y-%m-%d %H:%M:%S %Z').strip()}."
    )
    if meta.get("location"):
        lines.append(f"User location: {meta['location']}.")
    if meta.get("username"):
        lines.append(f"Username: {meta['username']}.")
    return "\n".join(lines)


def scenario_prompt(scenario: Scenario, base: str | None = None) -> str:
    """The scenario's own prompt (`metadata["system_prompt"]`, e.g. ToolTalk's) when no `base`
    is given, else `system_prompt`: static and dynamic play of a scenario show the same one."""
    own = scenario.metadata.get("system_prompt")
    if base is None and isinstance(own, str) and own:
        return own
    return system_prompt(scenario, base)
