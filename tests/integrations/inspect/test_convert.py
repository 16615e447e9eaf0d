"""toolplay's messages and tools as Inspect's, and Inspect's answers as toolplay's."""

from __future__ import annotations

import pytest

pytest.importorskip(
    "inspect_ai", reason="the inspect extra is not installed (pip install -e '.[inspect]')"
)

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ChatMessageTool,
    ModelOutput,
)
from inspect_ai.model._call_tools import parse_tool_call

from support import CATALOG
from toolplay.conversation import offered_tools
from toolplay.integrations.inspect import (
    assistant_turn,
    inspect_messages,
    inspect_tools,
    trajectory_messages,
)
from toolplay.messages import Message, ToolCall


def output(*calls: object, content: str = "") -> ModelOutput:
    message = ChatMessageAssistant(content=content, tool_calls=list(calls) or None)  # type: ignore[arg-type]
    return ModelOutput(model="m", choices=[ChatCompletionChoice(message=message)])


def test_every_offered_tool_schema_converts_without_loss() -> None:
    scenario = CATALOG.load_suite("quick").scenarios[0]
    schemas = offered_tools(CATALOG.setup(scenario)).schemas
    tools = inspect_tools(schemas)
    assert [t.name for t in tools] == [s["function"]["name"] for s in schemas]
    for tool, schema in zip(tools, schemas, strict=True):
        parameters = schema["function"]["parameters"]
        dumped = tool.parameters.model_dump(exclude_none=True)
        assert set(dumped["properties"]) == set(parameters["properties"])
        assert dumped.get("required", []) == parameters.get("required", [])


def test_a_malformed_call_keeps_the_text_the_model_wrote() -> None:
    broken = parse_tool_call("c1", "send_message", '{"content": "hi')
    assert broken.parse_error is not None
    turn = assistant_turn(output(broken))
    assert turn.tool_calls[0].arguments == '{"content": "hi'
    assert turn.tool_calls[0].parsed_arguments() is None  # the environment reports it


def test_calls_without_ids_are_numbered_as_toolplay_numbers_them() -> None:
    first = parse_tool_call("", "a", "{}")
    again = parse_tool_call("", "b", '{"x": 1}')
    turn = assistant_turn(output(first, again), first_call_number=3)
    assert [c.id for c in turn.tool_calls] == ["call_3", "call_4"]
    assert turn.content is None  # calls without text: no content, as an endpoint's null


def test_text_answer_and_usage() -> None:
    turn = assistant_turn(output(content="Done."))
    assert turn.content == "Done." and not turn.tool_calls and turn.usage.calls == 1


def test_the_view_becomes_chat_messages_with_tool_errors() -> None:
    call = ToolCall(id="c1", name="get_x", arguments="{oops")
    view = (
        Message(index=0, sender="system", recipient="assistant", content="sys"),
        Message(index=1, sender="user", recipient="assistant", content="hi"),
        Message(index=2, sender="assistant", recipient="environment", tool_calls=(call,)),
        Message(
            index=3,
            sender="environment",
            recipient="assistant",
            tool_call_id="c1",
            tool_name="get_x",
            error="arguments are not a JSON object",
            error_type="malformed_arguments",
        ),
        Message(index=4, sender="user", recipient="environment", tool_calls=(call,)),
    )
    messages = inspect_messages(view)
    assert [m.role for m in messages] == ["system", "user", "assistant", "tool"]
    tool = messages[3]
    assert isinstance(tool, ChatMessageTool) and tool.error is not None
    assert tool.error.type == "parsing" and tool.text.startswith("Error: ")
    assistant = messages[2]
    assert isinstance(assistant, ChatMessageAssistant) and assistant.tool_calls
    assert assistant.tool_calls[0].parse_error is not None
    logged = trajectory_messages(view)
    assert [m.metadata["index"] for m in logged if m.metadata] == [0, 1, 2, 3]
