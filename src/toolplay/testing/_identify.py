"""Which scenario a request to the test endpoint belongs to, and the names its tools go by.

The endpoint only sees requests. A scenario's first user message usually names it, but
suites share openings: every augmentation variant of a base (distraction tools, scrambled
names, dropped descriptions) and bases written around the same request (ToolSandbox's
`find_days_till_holiday` and `..._insufficient_information`). Where an opening is shared,
the tools the request offers tell the scenarios apart: they are compared with each candidate's
tools as toolplay's presentation shows them (`offered_tools`, `Presentation.offer`), schemas
first, then names; the matching candidate's shown names (`<domain>_<n>` when scrambled) are the
names its reference calls go out under.

Later user lines narrow the candidates further, and candidates that play the same reference
calls under the same names (augmentation variants without scrambling) need no telling apart.
Shown tools need each candidate's setup: `ScenarioIndex.prepare` builds them before a server
serves (`python -m toolplay.testing`); without a catalog only lines and calls decide. Scenarios
whose requests are identical cannot be told apart by any endpoint: the sandbox suite's
world-state variants (`sandbox_christmas_weekday` and `~wifi_off`: the world differs, the
request does not), or ToolSandbox bases whose scripted user says one and the same line
(`add_reminder_content_and_week_delta_...` and `..._weekday_delta_...`: the date is in the
simulated user's goal). Among them the first in suite order whose reference agrees with the
calls already made is chosen (`ScenarioIndex.first_consistent`), so such a scenario gets its
twin's solution.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolplay.scenarios import Scenario

if TYPE_CHECKING:
    from toolplay.catalog import Catalog


@dataclass(frozen=True)
class Shown:
    """A scenario's tools as shown: the canonical schemas, and real name → shown name."""

    schemas: str
    names: frozenset[str]
    shown_name: Mapping[str, str]


def request_tools(request: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The function definitions a request offers (`tools` or legacy `functions`)."""
    tools = request.get("tools") or []
    functions = [t.get("function", t) for t in tools if isinstance(t, dict)]
    legacy = request.get("functions") or []
    return [f for f in [*functions, *legacy] if isinstance(f, dict)]


def _canonical(functions: Sequence[Mapping[str, Any]]) -> str:
    return json.dumps(list(functions), sort_keys=True, ensure_ascii=False)


class ScenarioIndex:
    """Scenarios by opening; a shared opening is resolved by the tools a request offers.

    Args:
        scenarios: The scenarios the endpoint may be asked about.
        catalog: Builds each candidate's setup to know its shown tools. Without one, only the
            user's lines and the calls made tell scenarios apart (no scrambled names): enough
            where scenarios that share lines also share their reference solution.
        presentation: The presentation the runs use, which decides the tools shown (default:
            toolplay's; a suite's own, e.g. `toolsandbox`, shows other schemas and names).
    """

    def __init__(
        self,
        scenarios: Sequence[Scenario],
        catalog: Catalog | None = None,
        presentation: str | None = None,
    ) -> None:
        self.by_opening: dict[str, list[Scenario]] = {}
        for scenario in scenarios:
            if scenario.script:
                self.by_opening.setdefault(scenario.script[0], []).append(scenario)
        self._catalog = catalog
        self._presentation = presentation
        self._shown: dict[str, Shown] = {}
        self._lock = threading.Lock()

    def candidates(self, opening: str | None) -> list[Scenario]:
        """The scenarios opening with `opening` (KeyError naming it when none does)."""
        found = self.by_opening.get(opening or "")
        if not found:
            raise KeyError(f"no known scenario opens with {opening!r}")
        return found

    def prepare(self) -> int:
        """Work out now, not during requests, the shown tools of every scenario that needs
        them (see `_needs_tools`); returns how many. A server calls it before serving, so no
        request waits on building setups.
        """
        needing = [
            s for found in self.by_opening.values() if self._needs_tools(found) for s in found
        ]
        for scenario in needing:
            self.shown(scenario)
        return len(needing)

    def _needs_tools(self, found: Sequence[Scenario]) -> bool:
        """Whether scenarios sharing an opening must be told apart by their tools: they play
        different reference calls, or some rename their tools.
        """
        if self._catalog is None or len(found) < 2:
            return False
        if any("scrambled" in (s.augmentation or "") for s in found):
            return True
        first = _calls(found[0])
        return any(_calls(s) != first for s in found[1:])

    def shown(self, scenario: Scenario) -> Shown:
        """`scenario`'s tools as toolplay shows them (computed once; thread-safe)."""
        found = self._shown.get(scenario.id)
        if found is None:
            found = self._compute(scenario)  # outside the lock: other requests go on
            with self._lock:
                self._shown.setdefault(scenario.id, found)
        return found

    def _compute(self, scenario: Scenario) -> Shown:
        from toolplay.catalog import DEFAULT_PRESENTATION  # noqa: PLC0415
        from toolplay.conversation import offered_tools  # noqa: PLC0415

        assert self._catalog is not None
        setup = self._catalog.setup(scenario)
        presentation = self._catalog.presentation(self._presentation or DEFAULT_PRESENTATION)
        offered = presentation.offer(setup, offered_tools(setup))
        functions = [schema.get("function", schema) for schema in offered.schemas]
        return Shown(
            schemas=_canonical(functions),
            names=frozenset(str(f.get("name")) for f in functions),
            shown_name={real: shown for shown, real in offered.names.items()},
        )

    def resolve(self, request: Mapping[str, Any], said: Sequence[str]) -> Scenario:
        """The scenario of an assistant request whose user has said `said` so far: the
        opening, then every later line of the script, then the tools offered.
        """
        found = self.candidates(said[0] if said else None)
        if len(found) == 1:
            return found[0]
        found = [s for s in found if list(s.script[: len(said)]) == list(said)] or found
        if self._needs_tools(found):
            functions = request_tools(request)
            schemas, names = _canonical(functions), {str(f.get("name")) for f in functions}
            exact = [s for s in found if self.shown(s).schemas == schemas]
            found = exact or [s for s in found if self.shown(s).names == names] or found
        return self.first_consistent(found, request.get("messages") or [])

    def first_consistent(
        self, found: Sequence[Scenario], messages: Sequence[Mapping[str, Any]]
    ) -> Scenario:
        """The first of `found` whose reference calls begin with the calls already made (by
        shown tool name, in order), else the first.
        """
        made = [
            str(call.get("function", {}).get("name"))
            for message in messages
            if message.get("role") == "assistant"
            for call in message.get("tool_calls") or []
        ]
        for scenario in found:
            names = [
                self.shown_name(scenario, call.name)
                for turn in scenario.reference
                for call in turn.calls
            ]
            if names[: len(made)] == made:
                return scenario
        return found[0]

    def user_scenario(self, said: Sequence[str]) -> Scenario:
        """The scenario of a user-simulator request whose user has said `said` so far: the
        first whose script begins with it.
        """
        found = self.candidates(said[0] if said else None)
        for scenario in found:
            if list(scenario.script[: len(said)]) == list(said):
                return scenario
        return found[0]

    def shown_name(self, scenario: Scenario, real: str) -> str:
        """The name `scenario`'s tool `real` is shown under (itself when not renamed)."""
        if self._catalog is None or "scrambled" not in (scenario.augmentation or ""):
            return real
        return self.shown(scenario).shown_name.get(real, real)


def _calls(scenario: Scenario) -> list[tuple[str, str]]:
    """A scenario's reference calls (name, arguments) in order."""
    return [
        (call.name, json.dumps(call.arguments, sort_keys=True, default=str))
        for turn in scenario.reference
        for call in turn.calls
    ]
