"""What the reference's evaluation sees of an assistant's tool call (`evaluation.json`).

The reference puts each tool call on its message bus as Python code (the assistant's message to
the execution environment), and its milestones and minefields on that message compare with
that text: the minefields of the `*_insufficient_information` scenarios test whether it
*contains* a forbidden tool's name. The code's shape is the reference's (its
`openai_tool_call_to_python_code`), so it is exported as a template, derived by running that
function on sentinel values, never retyped.

Python 3.9, standard library only besides the reference package.
"""

from __future__ import annotations

from typing import Any

SENTINELS = {"id": "CALLIDSENTINEL", "name": "TOOLNAMESENTINEL"}
ARGUMENTS = {"ARGUMENTSSENTINEL": 0}


def tool_call_template() -> str:
    """The code of one call with `{id}`, `{name}` and `{arguments}` where the values go.

    `{arguments}` stands for Python's `repr` of the parsed argument object (the reference
    formats `json.loads(arguments)` into the code).

    Raises:
        ValueError: when a sentinel does not come back exactly once per use, so the template
            could not be derived faithfully.
    """
    import json

    from openai.types.chat.chat_completion_message_tool_call import (
        ChatCompletionMessageToolCall,
        Function,
    )
    from tool_sandbox.common.message_conversion import openai_tool_call_to_python_code

    call = ChatCompletionMessageToolCall(
        id=SENTINELS["id"],
        type="function",
        function=Function(name=SENTINELS["name"], arguments=json.dumps(ARGUMENTS)),
    )
    code = openai_tool_call_to_python_code(call, {SENTINELS["name"]}, None)
    if "{" in code.replace(repr(ARGUMENTS), "") or code.count(repr(ARGUMENTS)) != 1:
        raise ValueError(f"unexpected tool-call code shape: {code!r}")
    template = code.replace(repr(ARGUMENTS), "{arguments}")
    for key, sentinel in SENTINELS.items():
        if sentinel not in template:
            raise ValueError(f"the tool-call code does not hold the call's {key}: {code!r}")
        template = template.replace(sentinel, "{" + key + "}")
    return template


def evaluation_data(commit: str) -> dict[str, Any]:
    """The contents of `evaluation.json`."""
    return {
        "licence": f"produced by running apple/ToolSandbox at commit {commit}; Apple's, under "
        "the licence in LICENSE",
        "tool_call_code": tool_call_template(),
    }
