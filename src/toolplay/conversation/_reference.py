"""Posting the reference's own messages, as static modes show them to the assistant.

Every message posted here carries `from_reference=True` and the reference `turn` it belongs to,
so a scorer can tell the replayed reference from the assistant's predictions.
"""

from __future__ import annotations

from toolplay.conversation._bus import MessageBus
from toolplay.messages import Role

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
