"""AutoDE's reference presentation (`autode`): every request as the reference's eval.py sends it.

The default presentation of `autode-data:DIR`. The reference (hlmu/AutoDE, `evaluators/eval.py`
and its clients in `utils/crawl_utils.py`) asks each model family its own way, and the prompt
file a run gives says which family it was written for; so does the system text the protocol
builds from it (`_protocol.protocol_prompt`), and that is what this presentation reads, per
request (`call_style`):

- `functions` (the gpt prompts, `[Openai]`, and any prompt that does not document the API): the
  API goes in the request as a function, on the legacy wire (`functions`, `function_call:
  "auto"`; a forced call, static mode, names the API: `function_call: {"name": API}`); the
  body is `messages, functions, function_call, model` in that order (the openai 0.28 SDK's
  kwargs order with the reference's `model` deployment entry). A call is the reply's
  `function_call` (its name is not checked; the protocol takes any first call); text is text,
  `<func>` included. `--option wire=tools` sends the same content in the current `tools` form.
- `text` (the Llama, CodeLlama and Zephyr prompts, `[Llama]` / `[Zephyr]`: the prompt documents
  the API where it says `{{api_doc}}`): no tools are sent, only `model, messages`; the call is
  read from the reply's text as the reference's client reads it (`read_text_call`): a reply
  holding `<func>` is a call whose argument text is the first `<func>…</func>` group, stripped
  (`{}` when it is not closed), checked before the stop marker. A forced call appends the
  reference's `SUBMIT API` cue (after a blank line) to the last user message (request only; the
  recorded dialogue keeps the turn as it was). The reference sent these to its own `/generate`
  server, which is not public, as `{"dialogs": [messages]}` (+ `do_function_call: true` when
  forced); here the same messages go to an OpenAI-compatible endpoint, whose chat template plays
  the server's part. What that server did with `do_function_call` (the published results suggest
  it prefilled the answer with `<func>`) cannot be reproduced: the `SUBMIT API` text is the
  whole of the forcing.
- `question` (the Claude prompts, `[Claude]`, which hold `{{question}}`): like `text`, but there
  is no system message: the first message is the user's, the prompt with the first query in
  place of `{{question}}`; body `messages, model`. (The reference's Claude proxy also sent
  `max_tokens_to_sample: 8192`, a cap its API required; an OpenAI-compatible endpoint needs
  none: `--option max_tokens=8192` sets the same cap.)

The user agent (every style): no tools (it cannot end the dialogue), body `model, messages`;
its chat is the reference's: the system message is the user prompt file's text followed by the
user script, the API's name and the gold slots as JSON (joined by the reference's labels), then
the reference's opener as a user turn, the fixed first query as its own (assistant) turn, and
the conversation so far with roles flipped. Its reply loses the stop marker and surrounding
whitespace. No temperature is sent by either role unless the run sets one: the reference sent
none (the endpoint's default).

Default prompts: with no `--system-prompt` / `--user-prompt`, the checkout's
`prompts/prompt_eng_system_v1.txt` (the gpt prompt) and `prompts/prompt_eng_user_v3.txt`, which
every script of the reference uses for the user agent (`default_prompt`; a checkout without
them gets toolplay's own prompts, a departure the run warns about). Every text named here
is read from the exported data (`_reference`) or the user's checkout, never typed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from toolplay.clients import ChatReply, ModelSettings, Wire
from toolplay.messages import ToolCall
from toolplay.methods.autode._reference import ReferenceTexts, reference_texts
from toolplay.roles import (
    AssistantContext,
    Presentation,
    UserContext,
    calls_so_far,
    openai_messages,
    user_system_prompt,
)
from toolplay.scenarios import Scenario

CallStyle = Literal["functions", "text", "question"]

PRESENTATION = "autode"
ASSISTANT_PROMPT = "prompt_eng_system_v1.txt"
"""The prompt of the reference's gpt runs, the default assistant prompt."""
USER_PROMPT = "prompt_eng_user_v3.txt"
"""The user agent's prompt in every run of the reference."""


def documentation(tools: Sequence[dict[str, Any]]) -> str | None:
    """The offered tools as the prompts document them (`{{api_doc}}`): the reference's layout
    (`name, description, parameters, requiredParameters`), one object for one tool.
    """
    docs = [api_doc(tool) for tool in tools]
    if not docs:
        return None
    return json.dumps(docs[0] if len(docs) == 1 else docs, ensure_ascii=False)


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


def call_style(context: AssistantContext, texts: ReferenceTexts | None = None) -> CallStyle:
    """How the conversation's prompt asks for calls (module docstring): its system text holds
    the question placeholder (`question`), documents the offered API (`text`), or neither.
    """
    texts = texts or reference_texts()
    prompt = context.system_prompt or ""
    if texts.question_placeholder in prompt:
        return "question"
    doc = documentation(context.tools)
    return "text" if doc is not None and doc in prompt else "functions"


def read_text_call(content: str, texts: ReferenceTexts | None = None) -> str | None:
    """The argument text of a call written as text, as the reference's client reads it: a
    reply holding the call marker is a call; its arguments are the first complete pattern's
    group, stripped, or the unclosed-call text. None: no call.
    """
    texts = texts or reference_texts()
    if texts.call_marker not in content:
        return None
    found = texts.call_pattern.findall(content)
    return str(found[0]).strip() if found else texts.unclosed_call_arguments


@lru_cache(maxsize=64)
def _read_prompt(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def checkout_prompt(scenario: Scenario, name: str) -> Path | None:
    """Where the scenario's AutoDE checkout keeps the prompt file `name` (None: the scenario
    is not from a checkout).
    """
    autode = scenario.metadata.get("autode")
    folder = autode.get("prompts") if isinstance(autode, dict) else None
    return Path(folder) / name if isinstance(folder, str) else None


def default_prompt(scenario: Scenario, name: str) -> str | None:
    """The reference's prompt file `name` from the scenario's checkout, read whole (None: not
    from a checkout, or the checkout has no such file: the mode falls back to toolplay's own
    prompt, and `paper_setup` names that departure).
    """
    path = checkout_prompt(scenario, name)
    return None if path is None else _read_prompt(path)


def _sampling(request: dict[str, Any], settings: ModelSettings, trial: int) -> dict[str, Any]:
    """What the run set beyond the reference's body (the reference sent none of these)."""
    if settings.temperature is not None:
        request["temperature"] = settings.temperature
    if settings.seed is not None:
        request["seed"] = settings.seed + trial
    if settings.max_tokens is not None:
        request["max_tokens"] = settings.max_tokens
    return request


@dataclass(frozen=True)
class AutodePresentation(Presentation):
    """What the AutoDE reference sends, per call style (see the module docstring)."""

    name: str = PRESENTATION
    description: str = (
        "AutoDE's reference (hlmu/AutoDE eval.py): the gpt prompts' legacy functions with "
        "function_call, or the Llama/Zephyr/Claude prompts' API documentation with calls read "
        "from <func> text and SUBMIT API to force one; the user agent's chat with its opener and "
        "no tools; no temperature."
    )
    default_temperature: float | None = None
    default_wire: Wire = "functions"

    @property
    def reference(self) -> ReferenceTexts:
        """The reference's texts."""
        return reference_texts()

    # -- the assistant ------------------------------------------------------------------

    def assistant_request(
        self, model: str, settings: ModelSettings, context: AssistantContext
    ) -> dict[str, Any]:
        """The request the reference's client sends for this conversation's prompt family."""
        texts = self.reference
        style = call_style(context, texts)
        messages = openai_messages(context.messages)
        if context.system_prompt and not any(m["role"] == "system" for m in messages):
            messages.insert(0, {"role": "system", "content": context.system_prompt})
        if style == "functions":
            request: dict[str, Any] = {
                "messages": messages,
                "tools": list(context.tools),
                "tool_choice": self.forced_choice(context) if context.force_tool_call else "auto",
                "model": model,
            }
            return self.on_wire(_sampling(request, settings, context.trial), settings)
        if style == "question" and len(messages) >= 2 and messages[0]["role"] == "system":
            question = messages[1]["content"] or ""
            first = messages[0]["content"].replace(texts.question_placeholder, question)
            messages = [{"role": "user", "content": first}, *messages[2:]]
        if context.force_tool_call and messages and messages[-1]["role"] == "user":
            last = messages[-1]
            messages[-1] = {**last, "content": (last["content"] or "") + texts.submit_suffix}
        if style == "question":
            request = {"messages": messages, "model": model}
        else:
            request = {"model": model, "messages": messages}
        return _sampling(request, settings, context.trial)

    def forced_choice(self, context: AssistantContext) -> Any:
        """The offered API by name (the reference forces the gold API); several tools (not
        AutoDE's data): any call, which only the tools wire can carry.
        """
        if len(context.tools) == 1:
            name = context.tools[0].get("function", {}).get("name")
            return {"type": "function", "function": {"name": name}}
        return "required"

    def read_reply(self, reply: ChatReply, context: AssistantContext) -> ChatReply:
        """A text-calling prompt's `<func>` reply as a call to the offered API (`functions`
        style: as the model gave it).
        """
        texts = self.reference
        if reply.tool_calls or call_style(context, texts) == "functions":
            return reply
        arguments = read_text_call(reply.content or "", texts)
        if arguments is None or not context.tools:
            return reply
        call = ToolCall(
            id=f"call_{calls_so_far(context.messages)}",
            name=_called_name(context.tools, arguments),
            arguments=arguments,
        )
        return replace(reply, tool_calls=(call,))

    # -- the user agent -----------------------------------------------------------------

    def user_request(
        self, model: str, settings: ModelSettings, context: UserContext
    ) -> dict[str, Any]:
        """The user agent's request: its briefing, the opener, the dialogue (roles flipped)."""
        texts = self.reference
        scenario = context.scenario
        instructions = context.instructions
        if instructions is None:
            instructions = default_prompt(scenario, USER_PROMPT)
        messages = [
            {"role": "system", "content": self.user_briefing(scenario, instructions)},
            {"role": "user", "content": texts.user_agent_opener},
        ]
        for message in context.messages:
            if message.content is None:
                continue
            if message.sender == "user":
                messages.append({"role": "assistant", "content": message.content})
            elif message.sender == "assistant":
                messages.append({"role": "user", "content": message.content})
        return _sampling({"model": model, "messages": messages}, settings, context.trial)

    def user_briefing(self, scenario: Scenario, instructions: str | None) -> str:
        """The user agent's system message: the user prompt, then the script, the API and the
        gold slots as the reference joins them (a scenario not from the official data: the
        script, goal and knowledge toolplay's way).
        """
        texts = self.reference
        autode = scenario.metadata.get("autode")
        label = scenario.metadata.get("label")
        if not (isinstance(autode, dict) and isinstance(label, dict)) or instructions is None:
            return user_system_prompt(scenario, instructions)
        slots = json.dumps(label.get("arguments", {}), ensure_ascii=False)
        return (
            instructions
            + str(autode.get("background", ""))
            + texts.user_briefing_before_api
            + str(label.get("name", ""))
            + texts.user_briefing_before_slots
            + slots
        )

    def read_user_reply(self, reply: ChatReply, context: UserContext) -> ChatReply:
        """The reply without the stop marker, stripped (the reference's client does both)."""
        content = (reply.content or "").replace(self.reference.stop_marker, "").strip()
        return replace(reply, content=content, tool_calls=())


def _called_name(tools: Sequence[dict[str, Any]], arguments: str) -> str:
    """The offered tool a text call is to: the only one (AutoDE offers the gold API alone and
    never reads the name); among several, the one its `functionName` names, else the first.
    """
    names = [str(t.get("function", t).get("name", "")) for t in tools]
    if len(names) > 1:
        try:
            named = json.loads(arguments).get("functionName")
        except (ValueError, AttributeError):
            named = None
        if named in names:
            return str(named)
    return names[0]
