"""What a chat model is shown, and how its answer is read back: a run's presentation.

A reproduction has two halves: the request the model receives and the scoring of its answer.
The scoring is the method's scorer; the request is the *presentation*: the assistant's system
text, how every earlier message (calls, their argument text, results and errors) is rendered,
the tool schemas (names, order, descriptions), the sampling settings sent, the wire format,
how a call is forced, how the answer is read (native tool calls, or calls written as text), and
the same for a simulated user's requests; and, where a model can see the difference, how its
calls run (`executor`: a reference's order of checks, error texts, partial writes). For a
method's official data the method registers a presentation that sends what its reference
sends, byte for byte; `Presentation` itself is toolplay's own (the `toolplay` presentation),
which toolplay's own suites use. A run has one presentation (`RunConfig.presentation`, default:
the suite's), recorded in `config.json`.

A presentation is handed to the model-backed roles when they are built (`RoleRequest`) and to
the modes with each `PlayRequest` (the system text and the tools the conversation shows). Roles
that are not chat models (oracle, python, replay) ignore it. A method subclasses `Presentation`
and overrides what its reference does differently; every hook has toolplay's behaviour as its
default.

The texts toolplay's own presentation uses by default (the ToolSandbox reference's agent prompt,
user-simulator instruction and default demonstrations) are data the ToolSandbox method ships;
they reach this module as `PromptTexts`, given when the presentation is built, so the core
never reads a method's files.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from toolplay.clients import ChatReply, ModelSettings, Wire, on_wire
from toolplay.messages import Message, ToolCall
from toolplay.roles._texts import PromptTexts
from toolplay.roles._user_briefing import END_CONVERSATION_TOOL, simulator_messages
from toolplay.scenarios import CallExecutor, Scenario, ScenarioSetup
from toolplay.tools import ToolPresentation

if TYPE_CHECKING:
    from toolplay.roles._base import AssistantContext, UserContext


def tool_result_content(message: Message) -> str:
    """The text a model reads for a tool result (toolplay's form): the result as JSON, or
    the error.
    """
    if message.error is not None:
        return f"Error: {message.error}"
    return json.dumps(message.result, ensure_ascii=False, sort_keys=True)


def openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The assistant's view of the bus as OpenAI chat messages (toolplay's form)."""
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.sender == "system":
            out.append({"role": "system", "content": message.content or ""})
        elif message.sender == "user":
            out.append({"role": "user", "content": message.content or ""})
        elif message.sender == "assistant":
            entry: dict[str, Any] = {"role": "assistant", "content": message.content}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments},
                    }
                    for call in message.tool_calls
                ]
            elif entry["content"] is None:
                entry["content"] = ""
            out.append(entry)
        elif message.is_tool_result:
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": message.tool_call_id,
                    "content": tool_result_content(message),
                }
            )
    return out


def chat_request(
    model: str,
    settings: ModelSettings,
    messages: list[dict[str, Any]],
    tools: Sequence[dict[str, Any]] = (),
    *,
    trial: int = 0,
) -> dict[str, Any]:
    """A chat-completions request body (toolplay's key order); the seed moves with the trial
    so trials differ. Settings left None are not sent (the endpoint's default applies).
    """
    request: dict[str, Any] = {"model": model, "messages": messages}
    if settings.temperature is not None:
        request["temperature"] = settings.temperature
    if tools:
        request["tools"] = list(tools)
    if settings.seed is not None:
        request["seed"] = settings.seed + trial
    if settings.max_tokens is not None:
        request["max_tokens"] = settings.max_tokens
    return request


def with_context(base: str, scenario: Scenario) -> str:
    """`base`, then the scenario's current time, location and user (toolplay's richer prompt)."""
    lines = [base]
    meta = scenario.metadata
    lines.append(
        f"Current time: {scenario.world.clock.strftime('%A %Y-%m-%d %H:%M:%S %Z').strip()}."
    )
    if meta.get("location"):
        lines.append(f"User location: {meta['location']}.")
    if meta.get("username"):
        lines.append(f"Username: {meta['username']}.")
    return "\n".join(lines)


@dataclass(frozen=True)
class Presentation:
    """toolplay's own presentation; a method's reference presentation overrides its hooks.

    Args:
        texts: Loads the texts of the default prompts (called once, when first needed).
        name: The name runs and `--presentation` use.
        description: One line for `toolplay suites` and the docs.
    """

    texts: Callable[[], PromptTexts] = field(default=PromptTexts, compare=False)
    name: str = "toolplay"
    description: str = (
        "toolplay's own: tool schemas from the tools' docstrings, results as JSON, errors as "
        "'Error: ...', temperature 0, the OpenAI tools format."
    )
    default_temperature: float | None = 0.0
    """Sent when the run sets no temperature (None: none sent, the endpoint's default)."""
    default_wire: Wire = "tools"
    """The wire format when the run sets none (`ModelOptions.wire`)."""

    @cached_property
    def prompt_texts(self) -> PromptTexts:
        """The default prompts' texts (loaded once)."""
        return self.texts()

    # -- the conversation ----------------------------------------------------------------

    def system_prompt(
        self,
        scenario: Scenario,
        base: str | None = None,
        context: bool = False,
        *,
        own: bool = True,
    ) -> str:
        """The assistant's system text for `scenario`.

        Args:
            scenario: The scenario played.
            base: The run's own base prompt (`--system-prompt`), replacing the default one.
            context: Append the scenario's current time, location and user.
            own: Prefer the scenario's own prompt (`metadata["system_prompt"]`) when no `base`
                is given, so static and dynamic play of a scenario show the same one.
        """
        mine = scenario.metadata.get("system_prompt")
        if own and base is None and isinstance(mine, str) and mine:
            return mine
        prompt = base if base is not None else self.prompt_texts.agent_system_prompt
        return with_context(prompt, scenario) if context else prompt

    def offer(self, setup: ScenarioSetup, offered: ToolPresentation) -> ToolPresentation:
        """The tools the assistant is shown, given what the scenario offers (toolplay's: as
        derived from the tools and the scenario's augmentations).
        """
        return offered

    def executor(self, setup: ScenarioSetup) -> CallExecutor | None:
        """What runs the assistant's calls and replays the reference (toolplay's: None, the
        registry: validated arguments, all-or-nothing calls, toolplay's error texts). A
        reference presentation returns its reference's way when the model can see the
        difference (results, error texts, what the calls are shown as).
        """
        return None

    def unsolvable(self, setup: ScenarioSetup) -> str | None:
        """Why the scenario's reference solution cannot be played as this presentation shows
        it (a reference defect it keeps, e.g. a tool the milestones call that the reference
        never offers), or None. `toolplay validate` reports such scenarios instead of
        failing them (toolplay's: None, it shows every tool the scenario offers).
        """
        return None

    # -- the assistant's requests --------------------------------------------------------

    def settings(self, settings: ModelSettings) -> ModelSettings:
        """`settings` with this presentation's defaults where the run set nothing."""
        return replace(
            settings,
            temperature=(
                self.default_temperature if settings.temperature is None else settings.temperature
            ),
            wire=settings.wire or self.default_wire,
        )

    def assistant_request(
        self, model: str, settings: ModelSettings, context: AssistantContext
    ) -> dict[str, Any]:
        """The request body asking the assistant's model for its next answer.

        `settings` are the role's (already through `settings`).
        """
        messages = openai_messages(context.messages)
        if context.system_prompt and not any(m["role"] == "system" for m in messages):
            messages.insert(0, {"role": "system", "content": context.system_prompt})
        request = chat_request(model, settings, messages, context.tools, trial=context.trial)
        if context.force_tool_call and context.tools:
            request["tool_choice"] = self.forced_choice(context)
        return self.on_wire(request, settings)

    def forced_choice(self, context: AssistantContext) -> Any:
        """`tool_choice` when the mode requires a call (toolplay's: any call)."""
        return "required"

    def on_wire(self, request: dict[str, Any], settings: ModelSettings) -> dict[str, Any]:
        """`request` (tools form) in the role's wire format."""
        return on_wire(request, settings.wire or self.default_wire)

    def read_reply(self, reply: ChatReply, context: AssistantContext) -> ChatReply:
        """The assistant's answer as toolplay records it (toolplay's: as the model gave it)."""
        return reply

    # -- how long a conversation may get -------------------------------------------------

    def budget_used(self, messages: Sequence[Message]) -> int | None:
        """How much of a dynamic conversation's limit (`Scenario.max_turns`) `messages` use,
        when this presentation counts it its own way; the limit is then checked before every
        step of every role (so a conversation may end with calls unanswered, as the
        ToolSandbox reference's does). None (toolplay's): `messages.turn_count`, checked
        before the assistant speaks.
        """
        return None

    # -- a simulated user's requests -----------------------------------------------------

    def user_text(self, content: str | None) -> str:
        """What a model-driven user says, from its reply's text (toolplay's: stripped)."""
        return (content or "").strip()

    def user_call_error(self, call: ToolCall) -> str | None:
        """Why a model-driven user's `end_conversation` call fails, or None when it ends the
        conversation (toolplay's: it always does). A failed call does not end it: the user is
        asked again (`UserContext.after_failed_call`).
        """
        return None

    def user_request(
        self, model: str, settings: ModelSettings, context: UserContext
    ) -> dict[str, Any]:
        """The request body asking a model-driven user for its next message."""
        last = context.messages[-1].sender if context.messages else None
        reference = context.style == "toolsandbox" and not context.instructions
        return chat_request(
            model,
            settings,
            simulator_messages(
                context.scenario,
                context.messages,
                context.instructions,
                context.style,
                self.prompt_texts,
            ),
            [END_CONVERSATION_TOOL] if last == "assistant" or not reference else [],
            trial=context.trial,
        )

    def read_user_reply(self, reply: ChatReply, context: UserContext) -> ChatReply:
        """A model-driven user's answer as toolplay takes it (toolplay's: as the model gave it;
        the user role strips its text).
        """
        return reply


def toolplay_presentation(texts: Callable[[], PromptTexts] = PromptTexts) -> Presentation:
    """Toolplay's own presentation, its default prompts made of `texts`."""
    return Presentation(texts)
