"""Issue 24 item 8: model exchanges stored once per message (format 2), read back whole;
trajectories stored before (format 1, every request whole) read as they are."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolplay.messages import EXCHANGE_FORMAT, Trajectory, compact_exchanges, expand_exchanges

TEXT = st.text(alphabet="abc ", max_size=6)


@st.composite
def trajectories(draw: st.DrawFn) -> dict[str, Any]:
    """A conversation whose assistant and simulated-user requests grow like real chats."""
    chats: dict[str, list[dict[str, Any]]] = {"assistant": [], "user": []}
    messages = []
    for index in range(draw(st.integers(0, 12))):
        sender = draw(st.sampled_from(["assistant", "user", "environment"]))
        message: dict[str, Any] = {"index": index, "sender": sender, "recipient": "user"}
        if sender in chats and draw(st.booleans()):
            chat = chats[sender]
            if draw(st.booleans()) and chat:  # a new chat now and then: a shorter prefix
                del chat[draw(st.integers(0, len(chat) - 1)) :]
            chat += [
                {"role": "user", "content": draw(TEXT)} for _ in range(draw(st.integers(0, 3)))
            ]
            request = {"model": "m", "messages": list(chat), "temperature": 0}
            message["exchange"] = {"request": request, "response": {"id": draw(TEXT)}}
        messages.append(message)
    return {"scenario_id": "s", "trial": 0, "messages": messages, "termination": "completed"}


@settings(max_examples=200, deadline=None)
@given(trajectories())
def test_stored_once_per_message_and_read_back_exactly(data: dict[str, Any]) -> None:
    stored = compact_exchanges(data)
    assert expand_exchanges(json.loads(json.dumps(stored))) == data
    assert len(json.dumps(stored)) <= len(json.dumps(data)) + 40  # never much larger
    assert Trajectory.model_validate(stored) == Trajectory.model_validate(data)


def test_a_long_conversation_stores_each_message_once() -> None:
    chat: list[dict[str, Any]] = []
    messages = []
    for index in range(40):
        chat.append({"role": "user", "content": f"line {index} " * 20})
        request = {"model": "m", "messages": list(chat)}
        messages.append(
            {
                "index": index,
                "sender": "assistant",
                "recipient": "user",
                "exchange": {"request": request, "response": {}},
            }
        )
    data = {"scenario_id": "s", "messages": messages}
    stored = compact_exchanges(data)
    assert stored["exchange_format"] == EXCHANGE_FORMAT
    kept = [m["exchange"]["request"]["messages"] for m in stored["messages"]]
    assert [len(k) for k in kept] == [1] * 40  # linear, where the whole requests hold 820
    assert stored["messages"][5]["exchange"]["previous"] == 4
    assert stored["messages"][5]["exchange"]["prefix"] == 5


def test_a_format_1_trajectory_reads_as_it_is() -> None:
    whole = {"request": {"messages": [{"role": "user", "content": "hi"}]}, "response": {}}
    data = {
        "scenario_id": "s",
        "messages": [{"index": 1, "sender": "assistant", "recipient": "user", "exchange": whole}],
    }
    read = Trajectory.model_validate(data)
    assert read.messages[0].exchange is not None
    assert read.messages[0].exchange.request == whole["request"]
    assert compact_exchanges({"scenario_id": "s", "messages": []}) == {
        "scenario_id": "s",
        "messages": [],
    }
