"""Responders: what the test endpoint answers, as an OpenAI assistant message.

A responder is any callable from the request body to a message dict (`content`, `tool_calls`).
`scripted` replays a fixed list; `ReferenceResponder` is rule-based: it recognises the scenario
from the conversation's first user message and, where scenarios share it, the tools the request
offers (`_identify`), and plays its reference solution under the tools' shown names, one call per
answer or a whole turn's calls at once (parallel calls), and it also plays the user when the
request offers `end_conversation` (a user-simulator request): it says the script's next line,
then ends the conversation. A call whose arguments came back malformed (a model fault the
server injected) is sent again, as a model told of its error would. A request in the legacy
`functions` format is read as its `tools` form (the answer is in the `tools` form either way).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from toolplay.clients import to_tools
from toolplay.scenarios import Scenario
from toolplay.testing._identify import ScenarioIndex

if TYPE_CHECKING:
    from toolplay.catalog import Catalog

Responder = Callable[[dict[str, Any]], dict[str, Any]]
"""Request body → assistant message (`content` and/or `tool_calls`)."""


def text(content: str) -> dict[str, Any]:
    """A text answer."""
    return {"role": "assistant", "content": content}


def tool_calls(*calls: tuple[str, dict[str, Any] | str], prefix: str = "call") -> dict[str, Any]:
    """An answer calling tools; each call is (name, arguments object or raw argument text)."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": f"{prefix}_{position}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": arguments
                    if isinstance(arguments, str)
                    else json.dumps(arguments, ensure_ascii=False),
                },
            }
            for position, (name, arguments) in enumerate(calls)
        ],
    }


def scripted(messages: Iterable[dict[str, Any]], *, repeat_last: bool = True) -> Responder:
    """Answer with `messages` in order (thread-safe), then repeat the last one."""
    pending = list(messages)
    if not pending:
        raise ValueError("a scripted responder needs at least one message")
    counter = itertools.count()

    def respond(request: dict[str, Any]) -> dict[str, Any]:
        number = next(counter)
        if number >= len(pending) and not repeat_last:
            raise RuntimeError(f"scripted responder exhausted after {len(pending)} answers")
        return pending[min(number, len(pending) - 1)]

    return respond


def is_user_request(request: dict[str, Any]) -> bool:
    """True for a user-simulator request (it offers `end_conversation`)."""
    names = {t.get("function", {}).get("name") for t in request.get("tools") or []}
    return "end_conversation" in names


class ReferenceResponder:
    """Plays the reference solution of known scenarios (and their scripted users).

    Args:
        scenarios: The scenarios it may be asked about.
        parallel: Emit all of a turn's calls in one message instead of one per answer.
        catalog: Resolves scenarios that share an opening (default: the built-in catalog).
        presentation: The presentation the runs use (default: toolplay's; `ScenarioIndex`).
    """

    def __init__(
        self,
        scenarios: Sequence[Scenario],
        *,
        parallel: bool = False,
        catalog: Catalog | None = None,
        presentation: str | None = None,
    ) -> None:
        self.index = ScenarioIndex(scenarios, catalog, presentation)
        self.parallel = parallel

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        request = to_tools(request)  # a request in the legacy functions format reads the same
        messages = request.get("messages") or []
        if is_user_request(request) or self._flipped(messages):
            return self._as_user(messages)
        return self._as_assistant(request, messages)

    def _flipped(self, messages: list[dict[str, Any]]) -> bool:
        """A user simulator offered no tools (AutoDE's user agent): its chat has a known
        scenario's opening as its own (`assistant`) turn, and no user turn says it.
        """
        said = {m.get("role") for m in messages if m.get("content") in self.index.by_opening}
        return said == {"assistant"}

    def _as_assistant(
        self, request: dict[str, Any], messages: list[dict[str, Any]]
    ) -> dict[str, Any]:
        users = [m for m in messages if m.get("role") == "user"]
        scenario = self.index.resolve(request, [str(m.get("content")) for m in users])
        turn_index = len(users) - 1
        last_user = max(i for i, m in enumerate(messages) if m.get("role") == "user")
        answers = [m for m in messages[last_user:] if m.get("role") == "assistant"]
        if turn_index >= len(scenario.reference):
            return text("Is there anything else?")
        turn = scenario.reference[turn_index]
        pending = [(self.index.shown_name(scenario, c.name), c.arguments) for c in turn.calls]
        for answer in answers:
            # The answer sent the first pending calls; a call whose arguments arrived
            # malformed stays pending and is sent again, as a model told of its error would.
            sent = (answer.get("tool_calls") or [])[: len(pending)]
            done = {i for i, call in enumerate(sent) if _well_formed(call)}
            pending = [c for i, c in enumerate(pending) if i not in done]
        prefix = f"call_{turn_index}_{len(answers)}"
        if pending:
            return tool_calls(*(pending if self.parallel else pending[:1]), prefix=prefix)
        return text(turn.reply or "Done.")

    def _as_user(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        # Only what follows the last system message is this conversation: demonstration
        # dialogues, each under its own system message, may come first.
        systems = [i for i, m in enumerate(messages) if m.get("role") == "system"]
        own = messages[systems[-1] + 1 :] if systems else messages
        said = [str(m.get("content")) for m in own if m.get("role") == "assistant"]
        scenario = self.index.user_scenario(said)
        if len(said) < len(scenario.script):
            return text(scenario.script[len(said)])
        return tool_calls(("end_conversation", {}), prefix="end")


def _well_formed(call: Any) -> bool:
    """Whether an OpenAI tool call's arguments are a JSON object."""
    function = call.get("function") if isinstance(call, dict) else None
    arguments = function.get("arguments") if isinstance(function, dict) else None
    try:
        return isinstance(json.loads(arguments or ""), dict)
    except ValueError:
        return False


def text_answers(reference: Responder, answer: str) -> Responder:
    """Answer every assistant request with `answer` (a user-simulator request: `reference`)."""

    def respond(request: dict[str, Any]) -> dict[str, Any]:
        return reference(request) if is_user_request(request) else text(answer)

    return respond
