"""The two toolplay roles an Inspect model can play: the assistant under test and the user.

`InspectAssistant` is the assistant under test: the conversation stays toolplay's (world, tools,
user, termination, scoring) and only its model calls go through Inspect's model API, so any
Inspect provider can be evaluated. A model call that fails after Inspect's own retries is an
`InfrastructureError` (the trial is not the assistant's failure and is never scored); an Inspect
sample limit reached during the call is the assistant's (`AssistantError`: scored as it stands).

`InspectUser` is a model-driven user whose model is Inspect's `user` model role
(`--model-role user=...`): the same simulator as toolplay's `ModelUser` (instructions, goal,
knowledge boundary, `end_conversation`), through Inspect.
"""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, Model
from inspect_ai.util import LimitExceededError

from toolplay.faults import AssistantError, InfrastructureError
from toolplay.integrations.inspect._convert import (
    assistant_turn,
    inspect_messages,
    inspect_tools,
    openai_dict_messages,
)
from toolplay.roles import (
    END_CONVERSATION_TOOL,
    AssistantContext,
    AssistantTurn,
    UserContext,
    UserTurn,
)
from toolplay.roles._chat import calls_so_far
from toolplay.roles._model_user import simulator_messages

USER_ROLE = "user"
"""The Inspect model role a model-driven user plays (`--model-role user=PROVIDER/MODEL`)."""


class InspectAssistant:
    """The assistant under test is an Inspect model (`get_model()`: the model being evaluated).

    Args:
        model: The Inspect model.
        config: Generation settings for every call (Inspect's own config applies beneath it).
    """

    def __init__(self, model: Model, config: GenerateConfig | None = None) -> None:
        self.model = model
        self.config = config or GenerateConfig()
        self.name = f"inspect:{model}"
        self.settings = {"model": str(model), "provider": "inspect"}

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Ask the model for the next turn."""
        messages = inspect_messages(context.messages)
        tools = inspect_tools(context.tools)
        force = context.force_tool_call and bool(tools)  # AutoDE static mode
        try:
            output = await self.model.generate(
                messages, tools, tool_choice="any" if force else None, config=self.config
            )
        except LimitExceededError as exc:
            raise AssistantError(f"Inspect limit reached: {exc}") from exc
        except Exception as exc:
            raise InfrastructureError(f"Inspect model {self.model} failed: {exc!r}") from exc
        return assistant_turn(output, calls_so_far(context.messages))


class InspectUser:
    """A user simulated by an Inspect model (the `user` model role).

    Args:
        model: The model playing the user.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self.name = f"inspect:{model}"
        self.settings = {"model": str(model), "provider": "inspect", "model_role": USER_ROLE}

    async def respond(self, context: UserContext) -> UserTurn:
        """Open with the script's first line, then let the model speak or end."""
        said = [m for m in context.messages if m.sender == "user" and m.content is not None]
        if not said and context.scenario.script:
            return UserTurn(content=context.scenario.script[0])
        messages = openai_dict_messages(
            simulator_messages(context.scenario, context.messages, style=context.style)
        )
        try:
            output = await self.model.generate(messages, inspect_tools([END_CONVERSATION_TOOL]))
        except Exception as exc:
            raise InfrastructureError(f"Inspect user model {self.model} failed: {exc!r}") from exc
        turn = assistant_turn(output)
        if any(call.name == END_CONVERSATION_TOOL["function"]["name"] for call in turn.tool_calls):
            return UserTurn(end="user_ended", usage=turn.usage)
        return UserTurn(content=(turn.content or "").strip(), usage=turn.usage)
