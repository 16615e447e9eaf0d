"""Posting the reference's own messages, as static modes show them to the assistant.

Every message posted here carries `from_reference=True` and the reference `turn` it belongs to,
so a scorer can tell the replayed reference from the assistant's predictions.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolplay.conversation._bus import MessageBus
from toolplay.messages import Role
from toolplay.scenarios import ReferenceTurn

REFERENCE_USER = "reference"
"""The user recorded for static trajectories: the reference's own utterances."""


def post_user(bus: MessageBus, text: str, t: int) -> None:
    """The user's utterance of reference turn `t`."""
    _post_text(bus, "user", "assistant", text, t)


def post_reply(bus: MessageBus, text: str, t: int) -> None:
    """The assistant's reply of reference turn `t`."""
    _post_text(bus, "assistant", "user", text, t)


def _post_text(bus: MessageBus, sender: Role, recipient: Role, text: str, t: int) -> None:
    bus.post(
        sender,
        recipient,
        visible_to=("user", "assistant"),
        content=text,
        turn=t,
        from_reference=True,
    )


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
