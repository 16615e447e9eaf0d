"""The oracle assistant: plays the scenario's reference solution, turn by turn.

It derives where it is from its view alone (how many user messages it has seen, how many
assistant messages since the last one), so it works in dynamic and static mode alike and holds
no state between calls.
"""

from __future__ import annotations

from toolplay.faults import AssistantError
from toolplay.messages import ToolCall
from toolplay.roles._base import AssistantContext, AssistantTurn


class OracleAssistant:
    """Replays `scenario.reference`; answers with the turn's reply once its calls are made.

    Under renamed tools (augmentations) it calls the shown names, from `context.tool_names`.
    """

    name = "oracle"
    sees_reference = True

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Emit the next reference call of the current turn, or the turn's reply."""
        turn_index = -1
        step = 0
        for message in context.messages:
            if message.sender == "user" and message.content is not None:
                turn_index += 1
                step = 0
            elif message.sender == "assistant":
                step += 1
        if context.reference is None:
            raise AssistantError("the oracle needs the reference solution (sees_reference)")
        reference = context.reference.scenario.reference
        if not 0 <= turn_index < len(reference):
            return AssistantTurn(content="Is there anything else I can help with?")
        turn = reference[turn_index]
        if step < len(turn.calls):
            call = turn.calls[step]
            call_id = f"call_{turn_index}_{step}"
            shown = {real: shown for shown, real in context.reference.tool_names.items()}
            name = shown.get(call.name, call.name)
            return AssistantTurn(tool_calls=(ToolCall.from_args(call_id, name, call.arguments),))
        return AssistantTurn(content=turn.reply or "Done.")


class SilentAssistant:
    """Only answers in text, never calls a tool: the floor every scenario must beat."""

    name = "no-call"

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Acknowledge without acting."""
        return AssistantTurn(content="I can't help with that.")
