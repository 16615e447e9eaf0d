"""The assistant's view of the bus as OpenAI messages, and the request it sends."""

from __future__ import annotations

from toolplay.clients import ModelOptions, ModelSettings
from toolplay.messages import (
    Message,
    ToolCall,
)
from toolplay.roles import openai_messages
from toolplay.roles._chat import chat_request


def test_bus_messages_become_openai_messages() -> None:
    call = ToolCall(id="c1", name="shown_name", arguments='{"a": 1')
    view = (
        Message(index=0, sender="system", recipient="assistant", content="sys"),
        Message(index=1, sender="user", recipient="assistant", content="hi"),
        Message(index=2, sender="assistant", recipient="environment", tool_calls=(call,)),
        Message(
            index=3,
            sender="environment",
            recipient="assistant",
            tool_call_id="c1",
            tool_name="real_name",
            error="bad JSON",
            error_type="malformed_arguments",
        ),
        Message(
            index=4,
            sender="environment",
            recipient="assistant",
            tool_call_id="c2",
            tool_name="x",
            result={"b": [1, "é"]},
        ),
        Message(index=5, sender="assistant", recipient="user", content=None),
    )
    assert openai_messages(view) == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "shown_name", "arguments": '{"a": 1'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "Error: bad JSON"},
        {"role": "tool", "tool_call_id": "c2", "content": '{"b": [1, "é"]}'},
        {"role": "assistant", "content": ""},
    ]


def test_request_seed_moves_with_the_trial_and_optional_fields_are_omitted() -> None:
    plain = chat_request("m", ModelSettings(temperature=0.0), [], [])
    assert plain == {"model": "m", "messages": [], "temperature": 0.0}
    # a temperature nobody set is not sent (the presentation fills its default in first)
    assert chat_request("m", ModelSettings(), [], []) == {"model": "m", "messages": []}
    seeded = ModelSettings(seed=10, max_tokens=5, temperature=0.3)

    def in_trial(trial: int) -> dict[str, object]:
        return chat_request("m", seeded, [], [{"type": "function"}], trial=trial)

    first, third = in_trial(0), in_trial(2)
    assert (first["seed"], third["seed"]) == (10, 12)
    assert first["max_tokens"] == 5 and first["tools"] == [{"type": "function"}]


def test_user_options_fall_back_to_the_assistants_field_by_field() -> None:
    assistant = ModelOptions(base_url="http://x/v1/", timeout=3, max_retries=0)
    settings = ModelOptions(timeout=9).over(assistant).resolve()
    assert settings.base_url == "http://x/v1" and settings.timeout == 9.0
    assert settings.policy.max_retries == 0
    assert ModelOptions().resolve().api_key_env == "OPENAI_API_KEY"
