"""The run's user instructions reach the user through `UserContext`.

(AutoDE's loop, built from the conversation's steps, is tested in tests/autode/test_loop.py.)
"""

from __future__ import annotations

import asyncio

import support
from toolplay.conversation import Conversation, PlayRequest, PlaySettings
from toolplay.roles import UserContext, UserTurn

SCENARIO = support.wifi_off_scenario()
Calls = support.Calls


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
