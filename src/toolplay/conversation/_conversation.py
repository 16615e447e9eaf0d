"""One conversation being played: the loop every mode is built from.

A `Conversation` holds the message bus, the world, the execution environment and the usage of
one scenario trial. Modes differ only in who speaks when and what the assistant sees; the steps
are the same everywhere and live here: the user says something (`user_says`), the assistant
acts (`assistant_acts`: it answers (`ask`), and each message of tool calls is executed
(`run_calls`), until it answers in text, reaches a call cap or the turn limit), the reference
is shown (static modes post it through `bus`), and the result is one canonical `Trajectory`.

Faults are classified on the way: a user simulator or endpoint fault and a crashing tool are
infrastructure errors, an exception raised by the assistant itself is an assistant error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from toolplay.conversation._acting import Stop, ask_assistant, post_answer, run_calls
from toolplay.conversation._bus import MessageBus
from toolplay.conversation._environment import Environment
from toolplay.conversation._play import PlayRequest
from toolplay.messages import Message, ToolCall, Trajectory, Usage, WorldChange, turn_count
from toolplay.roles import (
    AssistantContext,
    AssistantTurn,
    ReferenceView,
    UserContext,
    sees_reference,
)
from toolplay.scenarios import ScenarioSetup
from toolplay.tools import ToolPresentation, present
from toolplay.world import World

END_CONVERSATION = "end_conversation"


class Acted(NamedTuple):
    """How an assistant's turn ended."""

    calls: int
    """Tool calls it made."""
    capped: bool
    """It reached the call cap before answering in text."""


class Conversation:
    """One scenario trial in play (see the module docstring)."""

    def __init__(
        self, request: PlayRequest, prompt: str, *, presentation: ToolPresentation | None = None
    ) -> None:
        """Start the conversation: the system prompt is its first message.

        Args:
            request: What to play.
            prompt: The assistant's system prompt.
            presentation: The tools as the assistant sees them, when the mode needed them
                first (e.g. to document them in `prompt`); default `shown_tools(request)`.
        """
        self.request = request
        self.setup = request.setup
        self.presentation = presentation or shown_tools(request)
        self.renamed = renamed(self.presentation)
        self.executor = request.presentation.executor(self.setup)
        """Runs the calls when the presentation brings its reference's way (else the registry)."""
        self.world = self.setup.new_world()
        self.environment = Environment(
            self.world, self.setup.registry, self.presentation, self.executor
        )
        self.bus = MessageBus()
        self.prompt = prompt
        self.usage = Usage()
        self.changes: list[WorldChange] = []
        self.answers = 0
        """How many times the assistant has answered (text or calls) so far."""
        self.bus.post("system", "assistant", visible_to=("assistant",), content=prompt)

    def use_world(self, world: World) -> None:
        """Act on `world` from now on (static modes rebuild the world for every turn)."""
        self.world = world
        self.environment = Environment(world, self.setup.registry, self.presentation, self.executor)

    def _over_budget(self, limit: int | None) -> bool:
        """The presentation's own length rule (`Presentation.budget_used`) says stop."""
        if limit is None:
            return False
        used = self.request.presentation.budget_used(self.bus.messages)
        return used is not None and used >= limit

    async def user_says(self, max_turns: int | None = None) -> None:
        """The user's next message, posted to the assistant.

        Args:
            max_turns: The conversation's limit, when the presentation counts it its own way
                (`Presentation.budget_used`): checked before the user speaks.

        Raises:
            Stop: the user ended the conversation (or its script ran out), or it failed
                (an infrastructure error), or the limit was reached.
        """
        if self._over_budget(max_turns):
            raise Stop("turn_limit")
        context = UserContext(
            self.setup.scenario,
            self.request.trial,
            self.bus.view("user"),
            self.request.settings.user_prompt,
            self.request.settings.user_simulator,
        )
        try:
            said = await self.request.user.respond(context)
        except Exception as exc:
            raise Stop("infrastructure_error", f"user failed: {exc!r}") from exc
        self.usage = self.usage.add(said.usage)
        if said.end is not None:
            if said.end == "user_ended":
                call = ToolCall(id="end", name=END_CONVERSATION, arguments="{}")
                self.bus.post("user", "environment", visible_to=("user",), tool_calls=(call,))
            raise Stop(said.end)
        self.bus.post(
            "user", "assistant", visible_to=("user", "assistant"), content=said.content or ""
        )

    async def assistant_acts(
        self,
        *,
        sees: Callable[[Message], bool] | None = None,
        turn: int | None = None,
        cap: int | None = None,
        max_turns: int | None = None,
    ) -> Acted:
        """Let the assistant answer; execute its calls until it answers in text.

        Built from `ask` and `run_calls`; a mode that needs another loop (AutoDE's protocol:
        the first call ends the dialogue) builds its own from the same two steps.

        Args:
            sees: Which messages of the bus it sees (default: its view of the bus).
            turn: The reference turn its messages belong to (static modes).
            cap: Tool calls it may make before the turn is cut.
            max_turns: Stop the conversation (`turn_limit`) once the bus holds this many turns
                (`turn_count`) before it would speak; when the presentation counts the length
                its own way (`Presentation.budget_used`), that count is checked before it
                speaks and before its calls run (they are then left unanswered).

        Raises:
            Stop: the turn limit was reached, or the assistant or a tool failed.
        """
        made = 0
        own_rule = self.request.presentation.budget_used(self.bus.messages) is not None
        while cap is None or made < cap:
            if own_rule:
                if self._over_budget(max_turns):
                    raise Stop("turn_limit")
            elif max_turns is not None and turn_count(self.bus.messages) >= max_turns:
                raise Stop("turn_limit")
            answer = await self.ask(sees=sees, turn=turn)
            if not answer.tool_calls:
                return Acted(made, capped=False)
            if own_rule and self._over_budget(max_turns):
                raise Stop("turn_limit")
            self.run_calls(turn)
            made += len(answer.tool_calls)
        return Acted(made, capped=True)

    async def ask(
        self,
        *,
        sees: Callable[[Message], bool] | None = None,
        turn: int | None = None,
        force_call: bool = False,
    ) -> AssistantTurn:
        """Ask the assistant once and post its answer (counted in `answers`).

        Args:
            sees: Which messages of the bus it sees (default: its view of the bus).
            turn: The reference turn its message belongs to (static modes).
            force_call: Its answer must be a tool call (`AssistantContext.force_tool_call`).

        Raises:
            Stop: the assistant failed (its own error, or an infrastructure error).
        """
        answer = await ask_assistant(self.request.assistant, self._context(sees, force_call))
        self.answers += 1
        self.usage = self.usage.add(answer.usage)
        post_answer(self.bus, answer, turn)
        return answer

    def run_calls(self, turn: int | None = None) -> None:
        """Execute the tool calls of the last message, one result message each, and record
        the world changes they made.

        Raises:
            Stop: a tool crashed (an infrastructure error).
        """
        start = len(self.world.changes)
        try:
            run_calls(self.bus, self.environment, turn)
        finally:
            self.changes += self.world.changes[start:]

    def real_name(self, shown: str) -> str:
        """The real name of a tool the assistant called by its shown name."""
        return self.presentation.real_name(shown) or shown

    def _context(self, sees: Callable[[Message], bool] | None, force: bool) -> AssistantContext:
        if sees is None:
            view = self.bus.view("assistant")
        else:
            view = tuple(m for m in self.bus.messages if sees(m))
        assistant = self.request.assistant
        reference = (
            ReferenceView(self.setup.scenario, self.renamed) if sees_reference(assistant) else None
        )
        return AssistantContext(
            scenario_id=self.setup.scenario.id,
            trial=self.request.trial,
            messages=view,
            tools=self.presentation.schemas,
            system_prompt=self.prompt,
            force_tool_call=force,
            reference=reference,
        )

    def trajectory(self, stop: Stop | None, *, mode: str, user: str | None = None) -> Trajectory:
        """The record of the conversation, ended by `stop` (None: it completed)."""
        return Trajectory(
            scenario_id=self.setup.scenario.id,
            trial=self.request.trial,
            messages=self.bus.messages,
            changes=self.changes,
            termination="completed" if stop is None else stop.reason,  # type: ignore[arg-type]
            error=None if stop is None else stop.error,
            usage=self.usage,
            assistant=self.request.assistant.name,
            user=user if user is not None else self.request.user.name,
            mode=mode,
            tool_names=self.renamed,
        )


def offered_tools(setup: ScenarioSetup, augment: Sequence[str] = ()) -> ToolPresentation:
    """The tools a scenario offers, as the assistant sees them.

    `scenario.augmentation` may join several augmentations with `+`. Distraction tools come
    from every tool the world can run except those the scenario denies (a withheld tool must
    not come back as a distraction); a scenario's own ranking (`tools.distractors`) decides
    which come first.
    """
    scenario = setup.scenario
    own = scenario.augmentation.split("+") if scenario.augmentation else []
    pool = setup.registry.select(None, scenario.tools.deny)
    return present(setup.offered, own + list(augment), pool, scenario.tools.distractors)


def shown_tools(request: PlayRequest) -> ToolPresentation:
    """The tools the assistant is shown: what the scenario offers (`offered_tools`), as the
    run's presentation shows it (`Presentation.offer`; a reference presentation may show the
    reference's own schemas and names).
    """
    offered = offered_tools(request.setup, request.augment)
    return request.presentation.offer(request.setup, offered)


def renamed(presentation: ToolPresentation) -> dict[str, str]:
    """The shown→real names that differ (empty when no tool was renamed)."""
    return {shown: real for shown, real in presentation.names.items() if shown != real}
