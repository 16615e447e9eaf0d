"""toolplay's tools answer as the reference's: 177 probe calls, the exact text a model reads.

`data/tool_probes.json` holds what the reference's own execution environment answered for each
call in a given world (written by `scripts/toolsandbox_export --probes`). Each call runs here
through toolplay's tools in the same world, with the toolsandbox presentation's argument
binding, and is rendered as that presentation renders it. Ids the tools create are compared
by position (the reference's are random uuid4s, toolplay's seeded), and the polars predicate's
memory address is the exporter's fixed one. The probes listed in `DIFFERENT` differ on
purpose or are another branch's (their reason says which); every other must match.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from support import CATALOG, load_suite
from toolplay.conversation import Environment
from toolplay.messages import Message, ToolCall
from toolplay.methods.toolsandbox._render import error_text, result_text
from toolplay.methods.toolsandbox._shown import reference_data
from toolplay.tools import ToolPresentation

PROBES = json.loads((Path(__file__).parent / "data" / "tool_probes.json").read_text())["probes"]
STATES = {
    "base": {},
    "base_cellular_off": {"cellular": False},
    "base_wifi_off": {"wifi": False},
    "base_location_service_off": {"location_service": False},
    "base_low_battery_mode_on_wifi_off_location_service_off_cellular_off": {
        "cellular": False,
        "wifi": False,
        "location_service": False,
        "low_battery_mode": True,
    },
}
RAPID_API = "RapidAPI: the reference's service needs the network and a key; toolplay's is offline"
DIFFERENT = {
    "generic/bool_for_int_ok": "toolplay's validation refuses a bool for an int; the reference not",
    "generic/json_string": "a JSON string as the argument text: the reference pastes it as a "
    "Python name (NameError) and then ends the scenario",
    "generic/null_search_untyped": "an explicit null criterion: toolplay reads it as not given",
    "setting/set_location_wrong_type_low_battery": "only here the reference checks low battery "
    "before the type of `on`",
    "contact/search_is_self_string": "search_contacts(is_self='true'): the reference compares "
    "in polars; toolplay refuses the type",
    "code/id_with_hyphen": "a call id that is no Python identifier breaks the reference's "
    "generated code (a defect)",
    "utilities/seconds_to_hours_minutes_seconds": "the tool comes with issue 23's branch",
    "utilities/seconds_to_hours_minutes_seconds_big": "the tool comes with issue 23's branch",
    **{p["id"]: RAPID_API for p in PROBES if p["id"].startswith("rapid_api/")},
}
UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def masked(text: str) -> str:
    seen: dict[str, str] = {}
    return UUID4.sub(lambda m: seen.setdefault(m.group(0), f"<id{len(seen)}>"), text)


@pytest.fixture(scope="module")
def base():  # type: ignore[no-untyped-def]
    suite = load_suite("toolsandbox")
    return next(s for s in suite.scenarios if s.id == "add_contact_with_name_and_phone_number")


def answer(base: Any, probe: dict[str, Any]) -> str:
    settings = {**base.world.tables["settings"][0], **STATES[probe["state"]]}
    world = base.world.model_copy(update={"tables": {**base.world.tables, "settings": [settings]}})
    tools = base.tools.model_copy(update={"allow": None, "deny": []})
    setup = CATALOG.setup(base.model_copy(update={"world": world, "tools": tools}))
    plain = ToolPresentation.plain(setup.registry)
    environment = Environment(
        setup.new_world(), setup.registry, CATALOG.presentation("toolsandbox")._checked(plain)
    )
    text = ""
    steps = [*probe["setup"], {"tool": probe["tool"], "arguments": probe["arguments"]}]
    for index, step in enumerate(steps):
        arguments = step["arguments"]
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
        outcome = environment.execute(
            ToolCall(id=f"c{index}", name=step["tool"], arguments=raw), index
        )
        message = Message(
            index=index,
            sender="environment",
            recipient="assistant",
            tool_call_id=f"c{index}",
            tool_name=step["tool"],
            result=outcome.result,
            error=outcome.error,
            error_code=outcome.code,
            error_fields=dict(outcome.fields) or None,
        )
        if outcome.error is None:
            text = result_text(message)
        else:
            text = error_text(message, step["tool"], list(plain.names), reference_data())
    return text


@pytest.mark.parametrize("probe", PROBES, ids=[p["id"] for p in PROBES])
def test_the_tool_message_is_the_references(base: Any, probe: dict[str, Any]) -> None:
    if probe["id"] in DIFFERENT:
        pytest.skip(DIFFERENT[probe["id"]])
    assert masked(answer(base, probe)) == masked(probe["content"])


def test_the_probes_are_the_exporters() -> None:
    assert (
        len(PROBES) == 177
        and "Apple"
        in json.loads((Path(__file__).parent / "data" / "tool_probes.json").read_text())["licence"]
    )
