"""A user simulated by a model (ToolSandbox's user simulator, AutoDE's user agent).

Its requests are the run's presentation's (`Presentation.user_request`; toolplay's own briefing
is `_user_briefing`). When the scenario has a script, its first utterance is said verbatim
(AutoDE's fixed first query, the reference's first message), so every assistant faces the same
opening; after that the model speaks, or ends the conversation by calling `end_conversation`.
"""

from __future__ import annotations

from dataclasses import replace

from toolplay.messages import Usage
from toolplay.roles._base import UserContext, UserTurn
from toolplay.roles._chat import ChatModelRole
from toolplay.roles._user_briefing import (
    END_CONVERSATION_TOOL,
    OPENING_NUDGE,
    USER_INSTRUCTIONS,
    demonstration_chat,
    reference_user_prompt,
    simulator_messages,
    user_system_prompt,
)

__all__ = [
    "END_CONVERSATION_TOOL",
    "OPENING_NUDGE",
    "USER_INSTRUCTIONS",
    "ModelUser",
    "demonstration_chat",
    "reference_user_prompt",
    "simulator_messages",
    "user_system_prompt",
]


class ModelUser(ChatModelRole):
    """The user role played by a chat model (see `ChatModelRole` for its parts)."""

    async def respond(self, context: UserContext) -> UserTurn:
        """Open with the script's first line, then let the model speak or end.

        An `end_conversation` call the presentation refuses (`Presentation.user_call_error`,
        e.g. the ToolSandbox reference's with an argument) ends nothing: the model is asked
        once more, told its call failed (`UserContext.after_failed_call`).
        """
        said = [m for m in context.messages if m.sender == "user" and m.content is not None]
        if not said and context.scenario.script:
            return UserTurn(content=context.scenario.script[0])
        usage = Usage()
        while True:
            request = self.presentation.user_request(self.model, self.model_settings, context)
            reply = await self.client.complete(request, trial=context.trial)
            reply = self.presentation.read_user_reply(reply, context)
            usage = usage.add(reply.usage)
            ends = [call for call in reply.tool_calls if call.name == "end_conversation"]
            if not ends:
                return UserTurn(content=self.presentation.user_text(reply.content), usage=usage)
            failed = [self.presentation.user_call_error(call) for call in ends]
            if context.after_failed_call or any(error is None for error in failed):
                return UserTurn(end="user_ended", usage=usage)
            context = replace(context, after_failed_call=True)
