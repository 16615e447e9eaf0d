"""Assistants the report tests run through the CLI, registered as a plugin (`--plugin`).

They are test doubles built on the oracle, so they read the reference (`sees_reference`).
"""

from __future__ import annotations

from toolplay.catalog import Catalog
from toolplay.messages import ToolCall
from toolplay.roles import (
    AssistantContext,
    AssistantTurn,
    InfrastructureError,
    OracleAssistant,
    RoleKind,
    SilentAssistant,
)

SCRIPT_PAYLOAD = "<script>document.title='pwned-script'</script>"
FLAKY_MESSAGE = "endpoint down after 3 retries <b>bold</b> " + SCRIPT_PAYLOAD


def _domains(context: AssistantContext) -> list[str]:
    return [] if context.reference is None else context.reference.scenario.world.domains


class FlakyAssistant:
    """The oracle, except on scenarios about settings, where its endpoint is 'down'."""

    name = "flaky"
    sees_reference = True

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Fail with an infrastructure error on settings scenarios, else play the reference."""
        if "settings" in _domains(context):
            raise InfrastructureError(FLAKY_MESSAGE)
        return await OracleAssistant().respond(context)


class RecklessAssistant:
    """Switches cellular off (a minefield) before doing what was asked: turning wifi on."""

    name = "reckless"

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """Call set_cellular_service_status(false), then set_wifi_status(true), then reply."""
        steps = 0
        for message in context.messages:
            if message.sender == "user":
                steps = 0
            elif message.sender == "assistant":
                steps += 1
        plan = [
            ("set_cellular_service_status", {"on": False}),
            ("set_wifi_status", {"on": True}),
        ]
        if steps < len(plan):
            name, arguments = plan[steps]
            return AssistantTurn(tool_calls=(ToolCall.from_args(f"call_{steps}", name, arguments),))
        return AssistantTurn(content="Wifi is on (and I switched cellular off).")


class Partial:
    """Plays the reference only on scenarios using (or not using) one domain."""

    sees_reference = True

    def __init__(self, domain: str, wanted: bool) -> None:
        self.name = f"partial-{domain}-{wanted}"
        self.domain, self.wanted = domain, wanted

    async def respond(self, context: AssistantContext) -> AssistantTurn:
        """The oracle's answer where the domain test holds, else no call."""
        if (self.domain in _domains(context)) == self.wanted:
            return await OracleAssistant().respond(context)
        return await SilentAssistant().respond(context)


def register(catalog: Catalog) -> None:
    """Add the test assistants."""
    catalog.add_assistant(RoleKind("flaky", lambda request: FlakyAssistant()))
    catalog.add_assistant(RoleKind("reckless", lambda request: RecklessAssistant()))
    catalog.add_assistant(RoleKind("no-messaging", lambda request: Partial("messaging", False)))
    catalog.add_assistant(RoleKind("settings-only", lambda request: Partial("settings", True)))
