"""AutoDE's protocol as a mode of play, for scenarios with `metadata.protocol = "autode"`.

AutoDE measures slot filling, not tool selection, and asks for one call per dialogue:

- only the scenario's own tools are offered (for the official benchmark: the gold API alone);
- the first call to the label's function (any first call when the label says `any_name`)
  ends the dialogue and is the prediction; calls to other functions before it (lookups) run
  as usual;
- an assistant that answers in text with the stop marker (`[DONE]`, which the reference's
  prompts tell it to append when the API cannot serve the user) ends the dialogue without a
  call; one that makes no call within `max_rounds` (8) assistant turns hits `turn_limit`
  (the reference's "Round limit reached").

Dynamic: the user role opens (a model-driven user with the fixed first query) and answers each
text turn. Static: the assistant sees the whole reference dialogue up to its last user turn
(optionally followed by `submit_text`, e.g. the reference's "SUBMIT API") and is asked once,
with the call forced where the endpoint supports `tool_choice`; a text answer uses its one
round (`turn_limit`), as the reference records it.

The assistant's system prompt is `base_prompt` (the user's `--system-prompt`, e.g. one of the
reference's prompt files) or a short default of ours. A leading model-family tag such as
`[Llama]` is removed, and `{{api_doc}}` is replaced by the offered API's documentation in the
layout those prompts describe (`name`, `description`, `parameters`, `requiredParameters`).

An assistant that replays recorded dialogues (`recorded_trajectory(scenario, trial, mode)`,
e.g. a published results file) is not asked to play: its recorded trajectory is returned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from toolplay.messages import Trajectory, Usage
from toolplay.roles import Assistant, RoleContext, User
from toolplay.runtime._acting import Stop, ask_assistant, post_answer, run_calls
from toolplay.runtime._bus import MessageBus
from toolplay.runtime._dynamic import offered_tools, renamed
from toolplay.runtime._environment import Environment
from toolplay.scenarios import Scenario, SlotLabel, build_world, scenario_registry, slot_label

PROTOCOL = "autode"
DEFAULT_MAX_ROUNDS = 8
STOP_MARKER = "[DONE]"
API_DOC = "{{api_doc}}"
REFERENCE_USER = "reference"
DEFAULT_PROMPT = (
    "You are a voice assistant that serves the user by calling the API you are given. If the "
    "user has not given a value a parameter needs, ask for it briefly, one or two at a time. "
    "Never make up values the user has not said. Once you have what the call needs, call the "
    "API. If the API cannot do what the user wants, say why and end your reply with "
    f"{STOP_MARKER}."
)
_FAMILY_TAG = re.compile(r"^\s*\[[A-Za-z0-9 ._-]+\]")


def is_protocol_scenario(scenario: Scenario) -> bool:
    """Whether a scenario is played under AutoDE's protocol (`metadata.protocol`)."""
    return scenario.metadata.get("protocol") == PROTOCOL


def api_doc(schema: dict[str, Any]) -> dict[str, Any]:
    """An offered tool in the documentation layout of the reference's prompt files."""
    function = schema.get("function", schema)
    parameters = function.get("parameters") or {}
    return {
        "name": function.get("name"),
        "description": function.get("description", ""),
        "parameters": parameters.get("properties", {}),
        "requiredParameters": parameters.get("required", []),
    }


def protocol_prompt(base: str | None, tools: Sequence[dict[str, Any]]) -> str:
    """The assistant's system prompt (see the module docstring)."""
    text = _FAMILY_TAG.sub("", base, count=1) if base else DEFAULT_PROMPT
    if API_DOC in text:
        docs = [api_doc(t) for t in tools]
        doc = docs[0] if len(docs) == 1 else docs
        text = text.replace(API_DOC, json.dumps(doc, ensure_ascii=False))
    return text


def _scored(label: SlotLabel | None, names: Sequence[str]) -> bool:
    return label is None or any(label.is_scored(name) for name in names)


def _post_history(bus: MessageBus, scenario: Scenario, submit_text: str | None) -> None:
    last = len(scenario.reference) - 1
    for t, turn in enumerate(scenario.reference):
        if turn.user is not None:
            text = turn.user + (f"\n\n{submit_text}" if submit_text and t == last else "")
            bus.post(
                "user",
                "assistant",
                visible_to=("user", "assistant"),
                content=text,
                turn=t,
                from_reference=True,
            )
        if t < last and turn.reply is not None:
            bus.post(
                "assistant",
                "user",
                visible_to=("user", "assistant"),
                content=turn.reply,
                turn=t,
                from_reference=True,
            )


async def play_autode_protocol(
    scenario: Scenario,
    assistant: Assistant,
    user: User,
    *,
    trial: int = 0,
    static: bool = False,
    base_prompt: str | None = None,
    augment: Sequence[str] = (),
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    stop_marker: str = STOP_MARKER,
    submit_text: str | None = None,
) -> Trajectory:
    """Play one dialogue under AutoDE's protocol (see the module docstring)."""
    mode = "static" if static else "dynamic"
    recorded = getattr(assistant, "recorded_trajectory", None)
    if callable(recorded):
        trajectory = recorded(scenario, trial, mode)
        assert isinstance(trajectory, Trajectory)
        return trajectory
    if max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    if static and not scenario.reference:
        raise ValueError(f"{scenario.id}: static mode needs a reference dialogue")
    label = slot_label(scenario)
    world = build_world(scenario)
    offered = scenario_registry(scenario).select(scenario.tools.allow, scenario.tools.deny)
    presentation = offered_tools(scenario, augment)
    environment = Environment(world, offered, presentation)
    tools, names = presentation.schemas, renamed(presentation)
    prompt = protocol_prompt(base_prompt, tools)
    bus = MessageBus()
    bus.post("system", "assistant", visible_to=("assistant",), content=prompt)
    usage = Usage()
    termination, error = "completed", None
    rounds = 0

    async def assistant_turn(force: bool) -> bool:
        """One assistant turn; True when the dialogue goes on with the user."""
        nonlocal usage, rounds
        while True:
            if rounds >= max_rounds:
                raise Stop("turn_limit")
            context = RoleContext(
                scenario, bus.view("assistant"), tools, prompt, names, force_tool_call=force
            )
            answer = await ask_assistant(assistant, context)
            usage, rounds = usage.add(answer.usage), rounds + 1
            post_answer(bus, answer)
            if not answer.tool_calls:
                if stop_marker and stop_marker in (answer.content or ""):
                    raise Stop("completed")  # the assistant gave up without a call
                return True
            run_calls(bus, environment)
            real = [presentation.real_name(c.name) or c.name for c in answer.tool_calls]
            if _scored(label, real):
                raise Stop("completed")
            force = False

    try:
        if static:
            _post_history(bus, scenario, submit_text)
            if await assistant_turn(force=True):
                raise Stop("turn_limit")  # its one round passed without a call
        else:
            while True:
                try:
                    said = await user.respond(RoleContext(scenario, bus.view("user")))
                except Exception as exc:
                    raise Stop("infrastructure_error", f"user failed: {exc!r}") from exc
                usage = usage.add(said.usage)
                if said.end is not None:
                    raise Stop(said.end)
                bus.post(
                    "user",
                    "assistant",
                    visible_to=("user", "assistant"),
                    content=said.content or "",
                )
                await assistant_turn(force=False)
    except Stop as stop:
        termination, error = stop.reason, stop.error
    return Trajectory(
        scenario_id=scenario.id,
        trial=trial,
        messages=bus.messages,
        changes=world.changes,
        termination=termination,  # type: ignore[arg-type]
        error=error,
        usage=usage,
        assistant=assistant.name,
        user=REFERENCE_USER if static else user.name,
        mode="static" if static else "dynamic",
        tool_names=names,
    )
