"""AutoDE's protocol as two modes of play: `autode-protocol` (dynamic) and `autode-protocol-static`.

AutoDE (Mu et al., 2024) measures slot filling, not tool selection, and asks for one call per
dialogue. Both modes play it the same way:

- the assistant is shown the scenario's offered tools (for the official benchmark,
  `autode-data:DIR`, the gold API alone);
- the first call to the label's function (`toolplay.methods.autode.slot_label`; any first call when
  the label says `any_name`, as AutoDE does not score the name) ends the dialogue and is the
  prediction: its calls are executed (an API-only tool records them) and the assistant is not
  asked again. Calls to other functions before it (lookups) run as usual;
- a text answer holding the stop marker (`AutodeSettings.stop_marker`, `[DONE]`, which the
  reference's prompts tell an assistant to write when the API cannot serve the user) ends the
  dialogue without a call; an assistant that has answered `AutodeSettings.max_rounds` (8)
  times without ending the dialogue hits `turn_limit`, the reference's "Round limit reached".
  The loop is AutoDE's own (`_loop.act_until_call`), built from the conversation's steps.

`autode-protocol`: the user role opens (a model-driven user says the script's fixed first
query, then answers from the script; `PlaySettings.user_prompt` replaces its instructions) and
answers every text answer, until the assistant calls, stops, or runs out of rounds. Under the
reference presentation (`autode`) the user agent also answers the last text answer before the
round limit is recorded, as the reference's loop does (its reply changes nothing).

`autode-protocol-static`: the reference dialogue up to its last user turn (its text only,
`from_reference=True`, optionally followed by `AutodeSettings.submit_text`), then the assistant is
asked once with the call forced (the presentation says how: toolplay's `tool_choice`, the
reference's `function_call` naming the API or its `SUBMIT API` cue); lookups first are allowed.
A text answer uses its one chance (`turn_limit`), as the reference records it.

The assistant's system prompt (`protocol_prompt`) is `PlaySettings.system_prompt` (e.g. one of
the reference's prompt files); without one, the reference presentation reads the checkout's gpt
prompt, toolplay's uses a short default of ours. No scenario time or location is added, as
AutoDE adds none. A prompt file's model-family tag is removed as the reference removes it, and
the documentation placeholder is replaced by the offered API's documentation in the layout
those prompt files describe (`name`, `description`, `parameters`, `requiredParameters`).

A published AutoDE results file is not played but read: see `toolplay.roles.Recording`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

from toolplay.conversation import REFERENCE_USER, Conversation, Mode, PlayRequest, Stop, shown_tools
from toolplay.messages import Trajectory
from toolplay.methods.autode._loop import (
    DEFAULT_STOP_MARKER,
    AutodeSettings,
    act_until_call,
    post_dialogue,
)
from toolplay.methods.autode._presentation import (
    ASSISTANT_PROMPT,
    AutodePresentation,
    default_prompt,
    documentation,
)
from toolplay.methods.autode._reference import reference_texts
from toolplay.methods.autode._slot_label import slot_label
from toolplay.scenarios import Scenario

logger = logging.getLogger(__name__)

DEFAULT_PROMPT = (
    "You are a voice assistant that serves the user by calling the API you are given. If the "
    "user has not given a value a parameter needs, ask for it briefly, one or two at a time. "
    "Never make up values the user has not said. Once you have what the call needs, call the "
    "API. If the API cannot do what the user wants, say why{stop}."
)
"""Our own prompt, used when the run gives none (the reference's are data the user loads);
`{stop}` tells how to end without a call (the stop marker)."""

_FAMILY_TAG = re.compile(r"^\s*\[[A-Za-z0-9 ._-]+\]")
"""A tag of the user's own prompt (one not among the reference's): cut at the start only."""


def without_tag(text: str) -> str:
    """A prompt file's text without its model-family tag: the reference's tags are removed as
    its eval.py removes them (`text.strip(tag)`: the tag's characters at both ends), any other
    leading `[...]` tag at the start only.
    """
    for tag in reference_texts().family_tags.values():
        if text.startswith(tag):
            return text.strip(tag)
    return _FAMILY_TAG.sub("", text, count=1)


def protocol_prompt(
    base: str | None, tools: Sequence[dict[str, Any]], marker: str = DEFAULT_STOP_MARKER
) -> str:
    """The assistant's system prompt under the protocol (see the module docstring).

    Args:
        base: The run's prompt (a reference prompt file's text), or None for ours.
        tools: The offered tools' schemas, documented where `base` says `{{api_doc}}`.
        marker: The stop marker our own prompt mentions (empty: none).
    """
    if base:
        text = without_tag(base)
    else:
        text = DEFAULT_PROMPT.format(stop=f" and end your reply with {marker}" if marker else "")
    placeholder = reference_texts().api_doc_placeholder
    doc = documentation(tools)
    if placeholder in text and doc is not None:
        text = text.replace(placeholder, doc)
    return text


def ends_dialogue(scenario: Scenario) -> Callable[[str], bool]:
    """Which called tools (real names) end the dialogue: the label's function (any, for
    `any_name` or a scenario without a label).
    """
    label = slot_label(scenario)
    if label is None:
        return lambda name: True
    return label.is_scored


def _reference_presentation(request: PlayRequest) -> bool:
    return isinstance(request.presentation, AutodePresentation)


def _start(request: PlayRequest) -> tuple[Conversation, AutodeSettings]:
    presentation = shown_tools(request)
    own = request.settings.of(AutodeSettings)
    base = request.settings.system_prompt
    if base is None and _reference_presentation(request):
        base = default_prompt(request.setup.scenario, ASSISTANT_PROMPT)
    prompt = protocol_prompt(base, presentation.schemas, own.marker)
    return Conversation(request, prompt, presentation=presentation), own


async def _last_user_reply(conversation: Conversation) -> None:
    """The reference asks its user agent after every text answer, the last one too, before it
    records the round limit (the reply is recorded, and shown to nobody): the reference
    presentation does the same, so its user agent is sent what the reference's was. The
    dialogue's outcome is already decided, so a user that ends or fails here changes nothing.
    """
    try:
        await conversation.user_says()
    except Stop as stop:
        if stop.error:
            logger.warning("the user's answer after the round limit failed: %s", stop.error)


def _after_answer(conversation: Conversation, called: bool, own: AutodeSettings) -> None:
    """End the dialogue after the assistant's turn if the protocol says so.

    Raises:
        Stop: `completed` (it made the call, or wrote the stop marker), or `turn_limit` (its
            rounds are used up without either).
    """
    if called:
        raise Stop("completed")
    if own.marker and own.marker in (conversation.bus.messages[-1].content or ""):
        raise Stop("completed")
    if conversation.answers >= own.rounds:
        raise Stop("turn_limit")


async def play_autode_protocol(request: PlayRequest) -> Trajectory:
    """Play one dialogue under AutoDE's protocol, on-policy (see the module docstring)."""
    conversation, own = _start(request)
    ends = ends_dialogue(request.setup.scenario)
    try:
        while True:
            await conversation.user_says()
            called = await act_until_call(conversation, ends, own.rounds)
            try:
                _after_answer(conversation, called, own)
            except Stop as stop:
                if stop.reason == "turn_limit" and _reference_presentation(request):
                    await _last_user_reply(conversation)
                raise
    except Stop as stop:
        return conversation.trajectory(stop, mode="dynamic")


async def play_autode_protocol_static(request: PlayRequest) -> Trajectory:
    """Play AutoDE's static evaluation of one dialogue (see the module docstring)."""
    scenario = request.setup.scenario
    if not scenario.reference:
        raise ValueError(f"{scenario.id}: static mode needs a reference dialogue")
    conversation, own = _start(request)
    last = post_dialogue(conversation.bus, scenario.reference, own.submit_text)
    try:
        called = await act_until_call(
            conversation, ends_dialogue(scenario), own.rounds, turn=last, force_first_call=True
        )
        _after_answer(conversation, called, own)
        raise Stop("turn_limit")  # it answered in text: its one chance passed without a call
    except Stop as stop:
        return conversation.trajectory(stop, mode="static", user=REFERENCE_USER)


def autode_protocol_modes() -> list[Mode]:
    """The protocol's two modes, as the catalog registers them."""
    return [
        Mode(
            "autode-protocol",
            play_autode_protocol,
            "AutoDE's protocol, dynamic: the user opens with the fixed first query; the first "
            "call to the label's function ends the dialogue; 8 answers without it: round limit.",
            AutodeSettings,
        ),
        Mode(
            "autode-protocol-static",
            play_autode_protocol_static,
            "AutoDE's protocol, static: the reference dialogue up to its last user turn, then "
            "one forced call, which ends the dialogue.",
            AutodeSettings,
        ),
    ]
