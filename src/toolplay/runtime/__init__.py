"""Runtime: the message bus, the execution environment, and conversation play."""

from toolplay.runtime._autode_protocol import (
    DEFAULT_MAX_ROUNDS,
    STOP_MARKER,
    is_protocol_scenario,
    play_autode_protocol,
    protocol_prompt,
)
from toolplay.runtime._autode_static import play_autode_static
from toolplay.runtime._bus import MessageBus
from toolplay.runtime._dynamic import END_CONVERSATION, offered_tools, play_dynamic, renamed
from toolplay.runtime._environment import Environment, execution_order
from toolplay.runtime._prompts import DEFAULT_SYSTEM_PROMPT, system_prompt
from toolplay.runtime._static import (
    DEFAULT_MAX_CALLS_PER_TURN,
    play_static,
    replay_reference,
    static_prompt,
)

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "STOP_MARKER",
    "is_protocol_scenario",
    "play_autode_protocol",
    "protocol_prompt",
    "play_autode_static",
    "DEFAULT_MAX_CALLS_PER_TURN",
    "play_static",
    "replay_reference",
    "static_prompt",
    "DEFAULT_SYSTEM_PROMPT",
    "END_CONVERSATION",
    "Environment",
    "MessageBus",
    "execution_order",
    "offered_tools",
    "play_dynamic",
    "renamed",
    "system_prompt",
]
