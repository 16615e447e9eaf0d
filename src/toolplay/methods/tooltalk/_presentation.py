"""What the ToolTalk reference shows a model, byte for byte: the `tooltalk` presentation.

The reference (`OpenAIPredictor.predict`, microsoft/ToolTalk e05f4ce, with openai 0.28) sends
`json.dumps({"model", "messages", "functions"})`:

- no sampling settings (the endpoint's defaults), the legacy `functions` wire format;
- the system text: its template with the conversation file's `metadata` (`location`,
  `timestamp`, and `username`, written `None` when the conversation starts logged out; it stays
  so after a login);
- user texts and the ground truth's assistant texts as they are; every call (the ground truth's
  and the model's own of the current turn) as an assistant message with content `null` and the
  arguments as the executor left them (`json.dumps`, the session token written in: see
  `_executor`); every result as a `function` message named after the tool, its content
  `json.dumps({"response": ..., "exception": ...})` (the ground truth's as recorded, the model's
  as executed, keys in their own order);
- the 28 function docs as the reference's `to_openai_doc()` builds them (exported data: its
  descriptions and enums, `required` beside `parameters`, where the API ignores it), in
  ALL_APIS' order (`--api_mode all`, the published setting), or the suites' order
  (`tooltalk-suite`) or the conversation's `apis_used` (`tooltalk-exact`); with descriptions
  removed (`--augment no_docs`, the paper's ablation) as its `--disable_documentation` does:
  every description the empty string.

An answer is read as the reference reads it: a `function_call` is a call (any text beside it
is not shown again), anything else ends the turn. `--option wire=tools` sends the same content
in the `tools` format; a temperature the run sets is sent (and reported as a departure).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from toolplay.clients import ModelSettings, Wire
from toolplay.messages import Message
from toolplay.methods.tooltalk._executor import UNPARSED, ReferenceExecutor, read_arguments
from toolplay.methods.tooltalk._texts import ReferenceTexts, reference_texts
from toolplay.roles import Presentation, PromptTexts, chat_request
from toolplay.scenarios import CallExecutor, Scenario, ScenarioSetup
from toolplay.tools import ToolPresentation

if TYPE_CHECKING:
    from toolplay.roles import AssistantContext

ApiMode = Literal["all", "suite", "exact"]
CONVERSATION_METADATA = "conversation_metadata"
"""Scenario metadata key holding the conversation file's own `metadata` object (importer)."""


@dataclass(frozen=True)
class TooltalkPresentation(Presentation):
    """The ToolTalk reference's requests (module docstring).

    Args:
        texts: toolplay's default prompt texts (a simulated user in dynamic play is briefed
            toolplay's way: the reference has none).
        api_mode: Which function docs, in which order: the reference's `--api_mode`.
    """

    texts: Callable[[], PromptTexts] = field(default=PromptTexts, compare=False)
    name: str = "tooltalk"
    description: str = (
        "The ToolTalk reference's requests: its system text, calls shown with the session "
        "token written in, results as {response, exception}, its 28 function docs in "
        "ALL_APIS order, no temperature, the legacy functions format."
    )
    default_temperature: float | None = None
    default_wire: Wire = "functions"
    api_mode: ApiMode = "all"
    reference: Callable[[], ReferenceTexts] = field(default=reference_texts, compare=False)

    # -- the conversation ----------------------------------------------------------------

    def system_prompt(
        self,
        scenario: Scenario,
        base: str | None = None,
        context: bool = False,
        *,
        own: bool = True,
    ) -> str:
        """The reference's system text for a ToolTalk conversation (a run's own `base` prompt
        replaces it; a scenario not imported from ToolTalk gets toolplay's).
        """
        metadata = scenario.metadata.get(CONVERSATION_METADATA)
        if base is not None or not isinstance(metadata, dict):
            return super().system_prompt(scenario, base, context, own=own)
        return self.reference().system_template.format(
            location=metadata.get("location"),
            timestamp=metadata.get("timestamp"),
            username=metadata.get("username"),
        )

    def offer(self, setup: ScenarioSetup, offered: ToolPresentation) -> ToolPresentation:
        """The reference's function docs for the offered tools, in the API mode's order.

        A description an augmentation removed (`no_docs` and the like) is the empty string,
        as the reference's `--disable_documentation` makes it. Tools the reference does not
        know keep toolplay's schemas, after the reference's.
        """
        texts = self.reference()
        by_real = {real: shown for shown, real in offered.names.items()}
        schemas = {
            real: schema
            for schema in offered.schemas
            if (real := offered.real_name(schema["function"]["name"])) is not None
        }
        chosen = [name for name in self._order(setup.scenario, texts) if name in by_real]
        known = set(chosen)
        out: list[dict[str, Any]] = [
            {"type": "function", "function": _doc(texts, name, by_real[name], schemas.get(name))}
            for name in chosen
        ]
        out += [s for real, s in schemas.items() if real not in known and real not in texts.apis]
        return ToolPresentation(tuple(out), offered.names)

    def _order(self, scenario: Scenario, texts: ReferenceTexts) -> list[str]:
        if self.api_mode == "exact":
            return [str(name) for name in scenario.metadata.get("apis_used", [])]
        if self.api_mode == "suite":
            suites = scenario.metadata.get("suites_used", [])
            return [name for suite in suites for name in texts.suites.get(str(suite), ())]
        return list(texts.order)

    def executor(self, setup: ScenarioSetup) -> CallExecutor | None:
        """The reference executor's way for ToolTalk's tools (`_executor`); toolplay's
        registry for scenarios without them.
        """
        texts = self.reference()
        if not any(name in setup.registry for name in texts.order):
            return None
        return ReferenceExecutor(setup.registry, texts)

    # -- the assistant's requests --------------------------------------------------------

    def assistant_request(
        self, model: str, settings: ModelSettings, context: AssistantContext
    ) -> dict[str, Any]:
        """`{"model", "messages", "functions"}` as the reference builds it (module docstring)."""
        messages = reference_messages(context.messages)
        if context.system_prompt and not any(m["role"] == "system" for m in messages):
            messages.insert(0, {"role": "system", "content": context.system_prompt})
        request = chat_request(model, settings, messages, context.tools, trial=context.trial)
        if context.force_tool_call and context.tools:
            request["tool_choice"] = self.forced_choice(context)
        return self.on_wire(request, settings)


def reference_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The assistant's view as the reference's chat messages (in the `tools` form: the wire
    format turns calls into `function_call` and results into `function` messages).

    A message of several calls (possible in the `tools` format only) is shown as one call and
    its result after another, as the reference shows consecutive calls.
    """
    results = {m.tool_call_id: m for m in messages if m.is_tool_result}
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.sender in ("system", "user"):
            out.append({"role": message.sender, "content": message.content or ""})
        elif message.sender == "assistant" and message.tool_calls:
            for call in message.tool_calls:
                result = results.get(call.id)
                out.append(
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": call.id,
                                "type": "function",
                                "function": {
                                    "name": call.name,
                                    "arguments": _shown_arguments(call.arguments, result),
                                },
                            }
                        ],
                    }
                )
                if result is not None:
                    out.append(
                        {
                            "role": "tool",
                            "tool_call_id": call.id,
                            "content": json.dumps(
                                {"response": result.result, "exception": result.error}
                            ),
                        }
                    )
        elif message.sender == "assistant":
            out.append({"role": "assistant", "content": message.content})
    return out


def _shown_arguments(text: str, result: Message | None) -> str:
    """A call's arguments as the reference shows them: as executed, or as it reads them."""
    if result is not None and result.executed_arguments is not None:
        return result.executed_arguments
    parsed = read_arguments(text)
    return UNPARSED if parsed is None else json.dumps(parsed)


def _doc(
    texts: ReferenceTexts, name: str, shown: str, offered: dict[str, Any] | None
) -> dict[str, Any]:
    """The reference's doc of `name`, shown as `shown`, its descriptions blanked where the
    offered schema's were removed.
    """
    doc = copy.deepcopy(texts.functions[name])
    function = (offered or {}).get("function", {})
    properties = function.get("parameters", {}).get("properties", {})
    no_tool_description = offered is not None and function.get("description") == ""
    no_argument_descriptions = bool(properties) and not any(
        "description" in p for p in properties.values()
    )
    if no_tool_description and (no_argument_descriptions or not properties):
        doc = copy.deepcopy(texts.functions_without_documentation[name])
    elif no_tool_description:
        doc["description"] = ""
    elif no_argument_descriptions:
        for attributes in doc["parameters"]["properties"].values():
            attributes["description"] = ""
    doc["name"] = shown
    return doc


def tooltalk_presentations(texts: Callable[[], PromptTexts]) -> list[TooltalkPresentation]:
    """The reference presentation under each of the reference's API modes."""
    return [
        TooltalkPresentation(texts),
        TooltalkPresentation(
            texts,
            name="tooltalk-suite",
            description="ToolTalk's reference requests under --api_mode suite: the docs of "
            "the conversation's plugins, in each plugin's order.",
            api_mode="suite",
        ),
        TooltalkPresentation(
            texts,
            name="tooltalk-exact",
            description="ToolTalk's reference requests under --api_mode exact: the docs of "
            "the APIs the conversation uses, in its order.",
            api_mode="exact",
        ),
    ]
