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
)
from toolplay.conversation._environment import Environment, execution_order
from toolplay.conversation._modes import (
    REFERENCE_USER,
    builtin_modes,
    play_autode_static,
    play_dynamic,
    play_static,
)
from toolplay.conversation._play import (
    DEFAULT_MAX_CALLS_PER_TURN,
    Mode,
    PlayFunction,
    PlayRequest,
    PlaySettings,
)
from toolplay.conversation._prompts import DEFAULT_SYSTEM_PROMPT, scenario_prompt, system_prompt

__all__ = [
    "DEFAULT_MAX_CALLS_PER_TURN",
    "DEFAULT_SYSTEM_PROMPT",
    "END_CONVERSATION",
    "REFERENCE_USER",
    "Acted",
    "Conversation",
    "Environment",
    "MessageBus",
    "Mode",
    "PlayFunction",
    "PlayRequest",
    "PlaySettings",
    "Stop",
    "builtin_modes",
    "execution_order",
    "offered_tools",
    "play_autode_static",
    "play_dynamic",
    "play_static",
    "renamed",
    "scenario_prompt",
    "system_prompt",
]
