"""One conversation: the message bus, the execution environment, and the modes of play.

(A whole run of many conversations is `toolplay.runs`.)
"""

from toolplay.conversation._acting import Stop
from toolplay.conversation._bus import MessageBus
from toolplay.conversation._conversation import (
    END_CONVERSATION,
    Acted,
    Conversation,
    offered_tools,
    renamed,
    shown_tools,
)
from toolplay.conversation._environment import Environment, execution_order
from toolplay.conversation._modes import (
    builtin_modes,
    play_dynamic,
    play_static,
)
from toolplay.conversation._play import (
    DEFAULT_MAX_CALLS_PER_TURN,
    Mode,
    PlayFunction,
    PlayRequest,
    PlaySettings,
    StaticSettings,
)
from toolplay.conversation._player import PlayedTrials, Player, player_for
from toolplay.conversation._reference import REFERENCE_USER, post_reply, post_user

__all__ = [
    "DEFAULT_MAX_CALLS_PER_TURN",
    "END_CONVERSATION",
    "REFERENCE_USER",
    "Acted",
    "Conversation",
    "Environment",
    "MessageBus",
    "Mode",
    "PlayFunction",
    "PlayedTrials",
    "Player",
    "PlayRequest",
    "PlaySettings",
    "StaticSettings",
    "Stop",
    "builtin_modes",
    "execution_order",
    "offered_tools",
    "post_reply",
    "post_user",
    "play_dynamic",
    "play_static",
    "player_for",
    "renamed",
    "shown_tools",
]
