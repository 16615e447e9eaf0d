"""The `toolsandbox` presentation: every request as the ToolSandbox reference sends it.

For the `toolsandbox` suite (its default) the assistant and the simulated user are sent what
the reference's `OpenAIAPIAgent` and `OpenAIAPIUser` (apple/ToolSandbox 165848b, openai 1.17)
send for the same conversation; the texts are the reference's, exported as data (`_shown`):

- body `{"messages", "model", "tools"}` in that order and nothing else: no temperature (the
  endpoint's default) unless the run sets one, in which case it and a seed or token cap go
  where openai 1.17 puts them;
- tools: the reference's `function` objects (its descriptions, argument descriptions, types,
  `required`; no `additionalProperties`, no defaults) under the setting's augmentation, the
  exact list and order the reference shows for that base and setting, its global scrambled
  names under name scrambling (a tool the scenario's milestones call that the reference
  never offers stays unoffered: the reference's defect is kept, so the request and the
  number are the paper's; `unsolvable` names it and `--presentation toolplay` offers it);
  for a scenario that is not one of the reference's, the reference's object for each offered
  tool it knows, in its registry order (toolplay's own schema for a tool it does not know);
- messages: as `_render` says (earlier calls re-rendered, content `""` beside calls, results as
  Python literals, errors as the reference's `Type: message` texts, `name` on tool messages);
- the simulated user: the reference's briefing and demonstrations (toolplay's own chat for the
  `toolsandbox` style, already the reference's), its `end_conversation` schema, no `tools`
  after a failed call of its own; `end_conversation` with arguments fails as in the reference
  (an unexpected keyword) and the user is asked again;
- calls are checked by the reference's argument binding first (`_binding`), and parallel calls
  of one message run in the order the reference would keep (`first_failing_order`);
- the conversation's length is counted as the reference counts it (`budget_used`).

What deliberately differs, and why, is in README.md ("What the model is shown").
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolplay.clients import ModelSettings
from toolplay.messages import Message, ToolCall
from toolplay.methods.toolsandbox._binding import check_call
from toolplay.methods.toolsandbox._render import agent_messages
from toolplay.methods.toolsandbox._shown import (
    SCRAMBLES,
    ReferenceData,
    augmentation_of,
    reference_data,
)
from toolplay.roles import Presentation, simulator_messages
from toolplay.scenarios import ScenarioSetup
from toolplay.tools import ToolPresentation

if TYPE_CHECKING:
    from toolplay.roles import AssistantContext, UserContext

NAME = "toolsandbox"
END_CONVERSATION = "end_conversation"


def _function_schema(function: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": json.loads(json.dumps(function))}


@dataclass(frozen=True)
class ToolSandboxPresentation(Presentation):
    """The ToolSandbox reference's requests (module docstring)."""

    name: str = NAME
    description: str = (
        "apple/ToolSandbox's own requests: its tool schemas and tool lists, results as Python "
        "literals, its error texts, earlier calls re-rendered, no temperature."
    )
    default_temperature: float | None = None
    data: Callable[[], ReferenceData] = field(default=reference_data, compare=False)

    # -- the tools shown -------------------------------------------------------------------

    def offer(self, setup: ScenarioSetup, offered: ToolPresentation) -> ToolPresentation:
        """The reference's tools for this scenario and setting (module docstring)."""
        data = self.data()
        scenario = setup.scenario
        exact = data.shown(scenario.base_id or scenario.id, scenario.augmentation or "none")
        own = {offered.names[s["function"]["name"]]: s for s in offered.schemas}
        if exact is not None:
            augmentation, reals = exact.augmentation, list(exact.agent)
        elif _reference_setting(scenario.augmentation):
            augmentation = augmentation_of(scenario.augmentation)
            known = [r for r in data.registry_order if r in own]
            reals = known + [r for r in own if r not in known]
        else:  # augmentations the reference has no counterpart of: toolplay's schemas
            return self._checked(offered)
        schemas: list[dict[str, Any]] = []
        names: dict[str, str] = {}
        for real in reals:
            function = data.function(augmentation, real)
            if function is not None:
                schema = _function_schema(function)
            elif real in own:
                schema = own[real]
            else:
                continue
            schemas.append(schema)
            names[schema["function"]["name"]] = real
        return self._checked(ToolPresentation(tuple(schemas), names))

    def _checked(self, tools: ToolPresentation) -> ToolPresentation:
        data = self.data()
        return ToolPresentation(
            tools.schemas,
            tools.names,
            check=functools.partial(check_call, data),
            parallel="first_failing_order",
        )

    # -- the assistant's requests ----------------------------------------------------------

    def assistant_request(
        self, model: str, settings: ModelSettings, context: AssistantContext
    ) -> dict[str, Any]:
        """The reference agent's request body (module docstring)."""
        shown = [str(s["function"]["name"]) for s in context.tools]
        messages = agent_messages(context.messages, self.data(), shown)
        if context.system_prompt and not any(m["role"] == "system" for m in messages):
            messages.insert(0, {"role": "system", "content": context.system_prompt})
        body: dict[str, Any] = {"messages": messages, "model": model}
        _sampling(body, settings, context.trial)
        if context.force_tool_call and context.tools:
            body["tool_choice"] = self.forced_choice(context)
        if context.tools:
            body["tools"] = list(context.tools)
        return self.on_wire(body, settings)

    # -- how long a conversation may get ---------------------------------------------------

    def budget_used(self, messages: Sequence[Message]) -> int | None:
        """The reference's count of its 30-message budget (`Scenario.max_messages`): every
        message after the user's opening one, each tool call and each result apart; it is
        checked before every role's step (`Presentation.budget_used`).
        """
        opening = next((i for i, m in enumerate(messages) if m.sender == "user"), None)
        if opening is None:
            return 0
        return sum(
            len(m.tool_calls) if m.sender == "assistant" and m.tool_calls else 1
            for m in messages[opening + 1 :]
            if m.sender != "system"
        )

    # -- the simulated user's requests -----------------------------------------------------

    def user_request(
        self, model: str, settings: ModelSettings, context: UserContext
    ) -> dict[str, Any]:
        """The reference user simulator's request body (module docstring)."""
        messages = simulator_messages(
            context.scenario,
            context.messages,
            context.instructions,
            context.style,
            self.prompt_texts,
        )
        body: dict[str, Any] = {"messages": messages, "model": model}
        _sampling(body, settings, context.trial)
        if not context.after_failed_call:
            body["tools"] = self.user_tools(context)
        return body

    def user_tools(self, context: UserContext) -> list[dict[str, Any]]:
        """The user's `end_conversation`, as the reference's user role builds it."""
        data = self.data()
        scenario = context.scenario
        exact = data.shown(scenario.base_id or scenario.id, scenario.augmentation or "none")
        augmentation = exact.augmentation if exact else augmentation_of(scenario.augmentation)
        function = data.user_functions.get(augmentation, {}).get(END_CONVERSATION)
        if function is None:
            function = data.user_functions["none"][END_CONVERSATION]
        return [_function_schema(function)]

    def user_text(self, content: str | None) -> str:
        """The reference passes the user's text on as the model wrote it (not stripped)."""
        return content or ""

    def unsolvable(self, setup: ScenarioSetup) -> str | None:
        """The tools the solution calls that the reference never shows for this base and
        setting (the export's fix of a reference defect, `metadata.toolsandbox.fixed`).
        """
        scenario = setup.scenario
        exact = self.data().shown(scenario.base_id or scenario.id, scenario.augmentation or "none")
        if exact is None:
            return None
        called = {call.name for turn in scenario.reference for call in turn.calls}
        missing = sorted(called - set(exact.agent))
        if not missing:
            return None
        return (
            f"the reference never offers {', '.join(missing)} here, which the solution calls "
            "(a reference defect this presentation keeps; --presentation toolplay offers it)"
        )

    def user_call_error(self, call: ToolCall) -> str | None:
        """`end_conversation` takes no argument: with one, the reference's call fails."""
        try:
            given = json.loads(call.arguments) if call.arguments.strip() else {}
        except (ValueError, RecursionError):
            return "arguments are not JSON"
        if isinstance(given, dict) and not given:
            return None
        return "end_conversation takes no arguments"


def _reference_setting(augmentation: str | None) -> bool:
    """Whether a toolplay augmentation setting has a reference counterpart."""
    parts = (augmentation or "none").split("+")
    scrambles = [p for p in parts if p in SCRAMBLES]
    known = {"none", "distractors_3", "distractors_10", "distractors_all", *SCRAMBLES}
    return len(scrambles) <= 1 and all(p in known for p in parts)


def _sampling(body: dict[str, Any], settings: ModelSettings, trial: int) -> None:
    """Sampling settings the run set, where openai 1.17 puts them (the reference sets none)."""
    if settings.max_tokens is not None:
        body["max_tokens"] = settings.max_tokens
    if settings.seed is not None:
        body["seed"] = settings.seed + trial
    if settings.temperature is not None:
        body["temperature"] = settings.temperature


def toolsandbox_presentation(texts: Callable[[], Any]) -> ToolSandboxPresentation:
    """The presentation, its prompts (system prompt, user briefing) made of `texts`."""
    return ToolSandboxPresentation(texts)
