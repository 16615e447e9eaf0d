"""How a model-driven user is briefed: the chat a user simulator is shown, toolplay's way.

Briefed the ToolSandbox reference's way by default (`PlaySettings.user_simulator`): the chat
the model sees is each demonstration dialogue (the scenario's own, else the reference's default
ones, so every scenario has some), then the reference's instruction followed by the user's goal
as a system message, then the conversation so far, roles flipped. This is the chat the
reference's simulator builds from the demonstrations it places on the message bus visible only
to the user; toolplay keeps them out of its bus (turn counts and milestone indices stay those
of the real conversation) and gives the model the same messages. As in the reference, a
demonstration's `end_conversation` call (a user message to the environment) is not shown to
the model (the reference's chat conversion drops that pair), and `end_conversation` is offered
only when the assistant has just spoken. The instruction and demonstration texts are data
exported from the reference repository, given as `PromptTexts` (`_texts`).

With `user_simulator=toolplay`, the simulator's system prompt holds the user's goal, the
knowledge boundary (what the user knows; it must not invent anything else) and few-shot
demonstrations that only this role sees. Either way its only tool is `end_conversation`,
which ends the dialogue with `user_ended`. When the scenario has a script, its first
utterance is said verbatim (AutoDE's fixed first query, the reference's first message), so
every assistant faces the same opening. Roles are flipped for the simulator: the assistant's
words are its `user` messages and its own words are `assistant` messages.

Without a `goal`, the scenario's script is the goal ("get the assistant to do this"), so any
scripted scenario can be played with a simulated user.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolplay.messages import Message
from toolplay.roles._texts import PromptTexts
from toolplay.scenarios import Scenario

END_CONVERSATION_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "end_conversation",
        "description": (
            "End the conversation. Call it once your goal is achieved, or once it is clear the "
            "assistant cannot achieve it."
        ),
        "parameters": {"type": "object", "properties": {}, "required": []},
    },
}

USER_INSTRUCTIONS = """\
You are role-playing a user who talks to an AI assistant on their phone. You are the user, \
never the assistant: the assistant does the work, you only say what you want.

Your goal:
{goal}

What you know:
{knowledge}

Rules:
- Only state facts given above or told to you by the assistant. If the assistant asks for \
something you do not know, say you do not know; never invent names, numbers or details.
- Write short, plain messages, as a real user would, and give information only when it is \
needed or asked for.
- When your goal is achieved, or it is clear that it cannot be, call end_conversation \
instead of writing a message."""

OPENING_NUDGE = "(The assistant is waiting. Write your first message to it.)"


def user_system_prompt(scenario: Scenario, instructions: str | None = None) -> str:
    """The simulator's instructions: goal, knowledge boundary and demonstrations.

    With `instructions` (the run's own, `PlaySettings.user_prompt`, e.g. AutoDE's user prompt
    file), the goal and the knowledge follow them directly, one a line, the way AutoDE briefs
    its user agent (its script, then `API: ...` and `Parameters: ...`), in place of toolplay's
    text.
    """
    side = scenario.user
    goal = side.goal or _goal_from_script(scenario)
    knowledge = side.knowledge or "Only what your goal says."
    if instructions:
        prompt = f"{instructions}{goal.strip()}\n{knowledge}"
    else:
        prompt = USER_INSTRUCTIONS.format(goal=goal, knowledge=knowledge)
    for number, demo in enumerate(side.demonstrations, start=1):
        lines = [
            f"{m.get('role', 'user').capitalize()}: {m.get('content', '')}" for m in demo.messages
        ]
        prompt += f"\n\nExample conversation {number} (for style only):\n" + "\n".join(lines)
    return prompt


def _goal_from_script(scenario: Scenario) -> str:
    script = scenario.script
    if not script:
        return scenario.description or "Ask the assistant for help."
    steps = "\n".join(f"- {line}" for line in script)
    return f"Get the assistant to do what these messages ask, in this order:\n{steps}"


FLIPPED = {"user": "assistant", "assistant": "user", "system": "system"}
"""A demonstration's roles as the simulator's chat shows them (it plays the user)."""


def demonstration_chat(
    scenario: Scenario, instruction: str, texts: PromptTexts
) -> list[dict[str, Any]]:
    """The demonstrations as earlier chats, the reference's way (module docstring): the
    scenario's own, else the default ones of `texts`.
    """
    demos: list[Any] = list(scenario.user.demonstrations)
    if not demos:
        demos = list(texts.demonstrations)
    out: list[dict[str, Any]] = []
    for demo in demos:
        messages = demo["messages"] if isinstance(demo, dict) else demo.messages
        for m in messages:
            if m.get("recipient") == "environment":
                continue
            role = FLIPPED.get(m.get("role", "user"), "assistant")
            content = m.get("content", "")
            out.append(
                {"role": role, "content": instruction + content if role == "system" else content}
            )
    return out


def reference_user_prompt(scenario: Scenario, texts: PromptTexts) -> str:
    """The system message briefing the simulator on this scenario: the reference's
    instruction (`texts`), then the user's goal (and knowledge boundary, when the scenario
    gives one).
    """
    instruction = texts.user_instruction
    side = scenario.user
    goal = side.goal or _goal_from_script(scenario)
    return instruction + goal + (f"\n{side.knowledge}" if side.knowledge else "")


def simulator_messages(
    scenario: Scenario,
    view: Sequence[Message],
    instructions: str | None = None,
    style: str = "toolsandbox",
    texts: PromptTexts | None = None,
) -> list[dict[str, Any]]:
    """The user's view of the bus as the simulator's chat, roles flipped (`texts`: the
    reference briefing's instruction and default demonstrations, for `style="toolsandbox"`).
    """
    if style == "toolsandbox" and not instructions:
        texts = texts or PromptTexts()
        out = demonstration_chat(scenario, texts.user_instruction, texts)
        out.append({"role": "system", "content": reference_user_prompt(scenario, texts)})
    else:
        out = [{"role": "system", "content": user_system_prompt(scenario, instructions)}]
    briefing = len(out)
    for message in view:
        if message.content is None:
            continue
        if message.sender == "user":
            out.append({"role": "assistant", "content": message.content})
        elif message.sender == "assistant":
            out.append({"role": "user", "content": message.content})
    if len(out) == briefing or out[-1]["role"] == "assistant":
        out.append({"role": "user", "content": OPENING_NUDGE})
    return out
