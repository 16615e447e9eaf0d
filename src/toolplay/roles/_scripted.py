"""The scripted user: says the scenario's utterances in order, then ends.

Deterministic by construction: no simulator can invent facts. It speaks whenever the assistant
answers in text, and ends with `script_exhausted` when nothing is left to say.
"""

from __future__ import annotations

from toolplay.roles._base import UserContext, UserTurn


class ScriptedUser:
    """Sends `scenario.script` one utterance per turn."""

    name = "scripted"

    async def respond(self, context: UserContext) -> UserTurn:
        """The next utterance, or the end of the script."""
        said = sum(1 for m in context.messages if m.sender == "user" and m.content is not None)
        script = context.scenario.script
        if said < len(script):
            return UserTurn(content=script[said])
        return UserTurn(end="script_exhausted")
