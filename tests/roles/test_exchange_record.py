"""The recorded exchange keeps what the model said, not what varies per call."""

from toolplay.clients._client import exchange_of


def test_volatile_response_fields_are_not_recorded() -> None:
    body = {
        "id": "chatcmpl-17",
        "created": 1_790_000_000,
        "system_fingerprint": "fp_1",
        "model": "m",
        "choices": [{"message": {"role": "assistant", "content": "hi"}}],
    }
    record = exchange_of({"messages": []}, body, cached=False)
    assert record.response == {"model": "m", "choices": body["choices"]}
    again = exchange_of({"messages": []}, {**body, "id": "chatcmpl-99", "created": 1}, cached=False)
    assert again == record
    assert body["id"] == "chatcmpl-17"  # the caller's body is left alone
