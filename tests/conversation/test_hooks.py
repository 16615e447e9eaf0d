"""The run's user instructions reach the user through `UserContext`.

(AutoDE's loop, built from the conversation's steps, is tested in tests/autode/test_loop.py.)
"""

from __future__ import annotations

import asyncio

import support
from toolplay.conversation import Conversation, PlayRequest, PlaySettings
from toolplay.messages import ToolCall
from toolplay.roles import AssistantContext, AssistantTurn, UserContext, UserTurn

SCENARIO = support.parse_scenario(
    {
        "id": "hooks",
        "world": {"domains": ["settings"]},
        "user": {"script": ["Turn wifi off please."]},
        "reference": [
            {
                "user": "Turn wifi off please.",
                "calls": [{"name": "set_wifi_status", "arguments": {"on": False}}],
            }
        ],
    },
    "test",
)


class Calls:
    """Answers with one call per answer, by name, in order (then repeats the last)."""

    name = "calls"

    def __init__(self, *names: str) -> None:
        self.names = names
        self.asked = 0

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        name = self.names[min(self.asked, len(self.names) - 1)]
        self.asked += 1
        arguments = {"on": False} if name.startswith("set_") else {}
        return AssistantTurn(tool_calls=(ToolCall.from_args(f"c{self.asked}", name, arguments),))


class Listener:
    """A user who remembers the instructions it was given."""

    name = "listener"

    def __init__(self) -> None:
        self.instructions: list[str | None] = []

    async def respond(self, context: UserContext) -> UserTurn:
        self.instructions.append(context.instructions)
        return UserTurn(content=context.scenario.script[0])


def conversation(assistant: Calls, user: Listener | None = None, **settings: str) -> Conversation:
    request = PlayRequest(
        support.setup(SCENARIO), assistant, user or Listener(), settings=PlaySettings(**settings)
    )
    return Conversation(request, "prompt")


def test_the_runs_user_instructions_reach_the_user() -> None:
    user = Listener()
    asyncio.run(conversation(Calls("x"), user, user_prompt="Be brief.").user_says())
    asyncio.run(conversation(Calls("x"), user).user_says())
    assert user.instructions == ["Be brief.", None]
