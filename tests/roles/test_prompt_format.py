"""The prompt format for models without native tool calling: rendering, schema, parsing."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from llama_cpp.llama_grammar import LlamaGrammar

import support
from support import registry_for
from toolplay.clients._prompt_format import (
    MAX_CALLS,
    describe_tools,
    output_schema,
    parse_output,
    render_messages,
)

TOOLS = registry_for(list(support.CATALOG.tools.domains)).schemas()


def test_tools_are_described_with_signature_and_argument_docs() -> None:
    text = describe_tools(TOOLS)
    send = next(line for line in text.splitlines() if line.startswith("- send_message_with"))
    assert "phone_number: string" in send and "content: string" in send
    assert "    phone_number: " in text  # argument descriptions are listed


def test_history_is_rendered_in_the_same_format_the_model_answers_in() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "wifi on"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "function": {"name": "set_wifi_status", "arguments": '{"on": true}'},
                },
                {"id": "c2", "function": {"name": "get_wifi_status", "arguments": "{broken"}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "null"},
        {"role": "tool", "tool_call_id": "c2", "content": "Error: bad"},
        {"role": "assistant", "content": "Done."},
    ]
    out = render_messages(messages, TOOLS[:2])
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user", "assistant"]
    assert out[0]["content"].startswith("Be brief.") and '{"answer"' in out[0]["content"]
    assert json.loads(out[2]["content"]) == {
        "tool_calls": [
            {"name": "set_wifi_status", "arguments": {"on": True}},
            {"name": "get_wifi_status", "arguments": "{broken"},
        ]
    }
    assert out[3]["content"] == (
        "Tool results:\nResult of set_wifi_status: null\nResult of get_wifi_status: Error: bad"
    )
    assert json.loads(out[4]["content"]) == {"answer": "Done."}


def test_every_catalog_tool_schema_compiles_into_a_grammar() -> None:
    for entry in TOOLS:
        LlamaGrammar.from_json_schema(json.dumps(output_schema([entry])), verbose=False)
    LlamaGrammar.from_json_schema(json.dumps(output_schema(TOOLS)), verbose=False)
    LlamaGrammar.from_json_schema(json.dumps(output_schema([])), verbose=False)


def test_schema_offers_an_answer_or_calls_of_offered_tools_only() -> None:
    schema = output_schema(TOOLS[:3])
    answer, calls = schema["anyOf"]
    assert answer["required"] == ["answer"]
    items = calls["properties"]["tool_calls"]
    assert items["maxItems"] == MAX_CALLS
    names = [alt["properties"]["name"]["const"] for alt in items["items"]["anyOf"]]
    assert names == [t["function"]["name"] for t in TOOLS[:3]]
    assert output_schema([]) == answer


def test_well_formed_outputs() -> None:
    assert parse_output('{"answer": "Hi"}').content == "Hi"
    parsed = parse_output('```json\n{"tool_calls": [{"name": "f", "arguments": {"a": 1}}]}\n```')
    assert parsed.content is None and parsed.calls == (("f", '{"a": 1}'),)


def test_cut_outputs_are_salvaged() -> None:
    assert parse_output('{"answer": "I turned the wi').content == "I turned the wi"
    cut = parse_output('{"tool_calls": [{"name": "send", "arguments": {"content": "runn')
    assert cut.calls == (("send", '{"content": "runn'),)  # malformed: the environment says so
    closed = parse_output('{"tool_calls": [{"name": "send", "arguments": {"a": 1}}]')
    assert closed.calls == (("send", '{"a": 1}'),)
    assert parse_output("just words").content == "just words"


@given(st.text(max_size=200))
def test_parsing_never_fails_and_always_yields_text_or_calls(text: str) -> None:
    parsed = parse_output(text)
    assert (parsed.content is not None) != bool(parsed.calls)
    assert all(isinstance(name, str) and isinstance(args, str) for name, args in parsed.calls)
