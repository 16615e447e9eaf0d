"""Test helpers that are real parts: an OpenAI-compatible endpoint with fault injection.

`ChatServer` serves `/v1/chat/completions` on 127.0.0.1 from a responder (scripted, or the
rule-based `ReferenceResponder`), with a fixed artificial latency and seeded faults. Tests,
soak tests and `bench/bench_throughput.py` use it; `python -m toolplay.testing` serves it.
"""

from toolplay.testing._faults import FAULTS, Fault, FaultCounter, FaultPlan
from toolplay.testing._responders import (
    ReferenceResponder,
    Responder,
    is_user_request,
    scripted,
    text,
    tool_calls,
)
from toolplay.testing._server import ChatServer, RecordedRequest, break_arguments, completion

__all__ = [
    "FAULTS",
    "ChatServer",
    "Fault",
    "FaultCounter",
    "FaultPlan",
    "RecordedRequest",
    "ReferenceResponder",
    "Responder",
    "break_arguments",
    "completion",
    "is_user_request",
    "scripted",
    "text",
    "tool_calls",
]
