"""AutoDE's own loop, built from the conversation's steps (`Conversation.ask`, `run_calls`).

AutoDE asks for one call per dialogue: the first call to the label's function ends the
dialogue (`act_until_call`), and the assistant's answers are counted over the whole dialogue
(its round limit). Its static evaluation shows the reference dialogue's text up to its last
user turn (`post_dialogue`). The knobs of the protocol are `AutodeSettings` (the modes'
settings: `--option max_rounds=N`, `stop_marker=...`, `submit_text=...`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import Field

from toolplay.conversation import Conversation, MessageBus, Stop, post_reply, post_user
from toolplay.scenarios import ReferenceTurn
from toolplay.settings import Settings

DEFAULT_MAX_ROUNDS = 8
"""Assistant answers AutoDE allows before a dialogue without its call fails (`Round limit
reached`)."""

DEFAULT_STOP_MARKER = "[DONE]"
"""What the reference's prompts tell an assistant to write when the API cannot serve the user."""


class AutodeSettings(Settings):
    """The settings of AutoDE's protocol modes (`autode-protocol`, `autode-protocol-static`)."""

    max_rounds: int | None = Field(
        default=None,
        ge=1,
        description="AutoDE protocol: assistant answers allowed before a dialogue without its "
        f"call fails with round_limit ({DEFAULT_MAX_ROUNDS}).",
    )
    stop_marker: str | None = Field(
        default=None,
        description="AutoDE protocol: text by which the assistant ends the dialogue without a "
        f"call ({DEFAULT_STOP_MARKER}; empty: none).",
    )
    submit_text: str | None = Field(
        default=None,
        description="AutoDE protocol, static: text appended to the last user turn before the "
        "forced call (e.g. the reference's 'SUBMIT API'; default none).",
    )

    @property
    def rounds(self) -> int:
        """The round limit, default filled in."""
        return self.max_rounds or DEFAULT_MAX_ROUNDS

    @property
    def marker(self) -> str:
        """The stop marker, default filled in (empty: none)."""
        return DEFAULT_STOP_MARKER if self.stop_marker is None else self.stop_marker


async def act_until_call(
    conversation: Conversation,
    ends: Callable[[str], bool],
    rounds: int,
    *,
    turn: int | None = None,
    force_first_call: bool = False,
) -> bool:
    """Let the assistant answer until it calls a tool `ends` accepts, or answers in text.

    Its calls are executed as they come (lookups before the call run as usual; the ending
    call is executed too, and it is not asked again).

    Args:
        conversation: The dialogue being played.
        ends: Which tools (by real name) end the dialogue once called.
        rounds: Answers allowed over the whole dialogue: once the assistant has answered this
            many times, asking again stops the dialogue (`turn_limit`).
        turn: The reference turn its messages belong to (static evaluation).
        force_first_call: Its first answer must be a tool call (static evaluation).

    Returns:
        True when it made an ending call, False when it answered in text.

    Raises:
        Stop: `turn_limit` (its rounds are used up), or the assistant or a tool failed.
    """
    made = 0
    while True:
        if conversation.answers >= rounds:
            raise Stop("turn_limit")
        answer = await conversation.ask(turn=turn, force_call=force_first_call and made == 0)
        if not answer.tool_calls:
            return False
        conversation.run_calls(turn)
        made += len(answer.tool_calls)
        if any(ends(conversation.real_name(call.name)) for call in answer.tool_calls):
            return True


def post_dialogue(
    bus: MessageBus, reference: Sequence[ReferenceTurn], submit_text: str | None = None
) -> int:
    """The reference's text up to and including its last user turn (AutoDE's static history).

    No reference call is shown. `submit_text`, when given, follows the last user utterance
    after a blank line (the reference's `SUBMIT API`).

    Returns:
        The index of the last turn (the one the assistant is asked to complete).
    """
    last = len(reference) - 1
    for t, turn in enumerate(reference):
        if turn.user is not None:
            extra = f"\n\n{submit_text}" if submit_text and t == last else ""
            post_user(bus, turn.user + extra, t)
        if t < last and turn.reply is not None:
            post_reply(bus, turn.reply, t)
    return last
