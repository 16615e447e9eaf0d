"""Probes of the reference's tools: the exact text a model reads for a call in a given world.

Each case builds a world state (one of the reference's named base scenarios, changed by earlier
calls), sends one agent tool call through the reference's own pipeline
(`openai_tool_call_to_python_code` -> an AGENT->EXECUTION_ENVIRONMENT message ->
`ExecutionEnvironment.respond`) and records the EXECUTION_ENVIRONMENT->AGENT message: its
`content` (what the model reads in the tool message) and whether the reference flags it as an
exception. Every text is produced by the reference's code, never typed; `_errors.py` derives
the error table from them and toolplay's tests check its tools against them.

Deterministic: the clock is pinned (`_pinned`), the ids the tools create (the reference's
`uuid4`) come from a counter kept on the execution context (the n-th id of a world is
`UUID(int=n, version=4)`), and the memory address two `NoDataError` texts print (it changes from
run to run in the reference itself) is written as `ADDRESS`.
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from pathlib import Path
from typing import Any

from _pinned import pinned_clock

ADDRESS = "0x7F0000000000"
"""Written in place of the memory address a polars predicate prints (see the module docstring)."""
_ADDRESS = re.compile(r" at 0x[0-9A-Fa-f]+>")

CASES_FILE = Path(__file__).resolve().parent / "probe_cases.json"
"""The cases: {id, state, setup: [{tool, arguments}], tool, arguments, what}; arguments are an
object, or the raw argument text when it is a string."""


CALL_IDS = {"code/id_with_hyphen": "call-1"}
"""Probes whose call id is not the default `call_probe`."""


def _deterministic_uuid4() -> uuid.UUID:
    from tool_sandbox.common.execution_context import get_current_context

    context = get_current_context()
    n = getattr(context, "_export_uuid_counter", 0) + 1
    context._export_uuid_counter = n  # type: ignore[attr-defined]
    return uuid.UUID(int=n, version=4)


def patch_uuid4() -> None:
    """Make the ids the reference's tools create reproducible (module docstring)."""
    import tool_sandbox.tools.contact as contact
    import tool_sandbox.tools.messaging as messaging
    import tool_sandbox.tools.reminder as reminder

    for module in (contact, messaging, reminder):
        module.uuid4 = _deterministic_uuid4  # type: ignore[attr-defined]


def _states() -> dict[str, Any]:
    from tool_sandbox.common.tool_discovery import ToolBackend
    from tool_sandbox.scenarios.base_scenarios import named_base_scenarios

    with pinned_clock():
        return dict(named_base_scenarios(preferred_tool_backend=ToolBackend.DEFAULT))


def _tool_call(call_id: str, name: str, arguments: Any) -> Any:
    from openai.types.chat.chat_completion_message_tool_call import (
        ChatCompletionMessageToolCall,
        Function,
    )

    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ChatCompletionMessageToolCall(
        id=call_id, type="function", function=Function(name=name, arguments=text)
    )


def _run_call(env: Any, call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    from tool_sandbox.common.execution_context import RoleType, get_current_context
    from tool_sandbox.common.message_conversion import Message, openai_tool_call_to_python_code
    from tool_sandbox.roles.base_role import BaseRole

    context = get_current_context()
    available = set(context.get_available_tools(scrambling_allowed=True))
    call = _tool_call(call_id, name, arguments)
    code = openai_tool_call_to_python_code(
        call, available, execution_facing_tool_name=context.get_execution_facing_tool_name(name)
    )
    BaseRole.add_messages(
        [
            Message(
                sender=RoleType.AGENT,
                recipient=RoleType.EXECUTION_ENVIRONMENT,
                content=code,
                openai_tool_call_id=call_id,
                openai_function_name=name,
            )
        ]
    )
    env.respond()
    last = BaseRole.get_messages()[-1]
    return {
        "content": _ADDRESS.sub(f" at {ADDRESS}>", last.content),
        "exception": last.tool_call_exception is not None,
    }


def _fresh(state: Any) -> Any:
    from tool_sandbox.common.execution_context import (
        DatabaseNamespace,
        RoleType,
        set_current_context,
    )
    from tool_sandbox.roles.execution_environment import ExecutionEnvironment

    context = copy.deepcopy(state.starting_context)
    context.tool_allow_list = None
    context.tool_deny_list = None
    set_current_context(context)
    env = ExecutionEnvironment()
    db = context.get_database(
        DatabaseNamespace.SANDBOX, get_all_history_snapshots=True, drop_sandbox_message_index=False
    )
    for i in range(context.max_sandbox_message_index + 1):
        if (db["sender"][i], db["recipient"][i]) == (
            RoleType.SYSTEM,
            RoleType.EXECUTION_ENVIRONMENT,
        ):
            env.respond(ending_index=i)
    return env


def tool_probes() -> list[dict[str, Any]]:
    """Every case of `CASES_FILE` played through the reference (module docstring)."""
    states = _states()
    out = []
    for case in json.loads(CASES_FILE.read_text(encoding="utf-8")):
        with pinned_clock():
            env = _fresh(states[case["state"]])
            for k, setup in enumerate(case["setup"]):
                _run_call(env, f"call_setup{k}", setup["tool"], setup["arguments"])
            call_id = CALL_IDS.get(case["id"], "call_probe")
            result = _run_call(env, call_id, case["tool"], case["arguments"])
        out.append({**case, **result})
    return out
