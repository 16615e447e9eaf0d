"""The two kinds of failure a conversation can end in besides the assistant's own mistakes.

An `InfrastructureError` (an endpoint down after its retries, a user simulator failing, a tool
crashing) is not the assistant's fault: the scenario is stored as an error, never scored, and
played again on resume. An `AssistantError` is the assistant's own failure (a wrapped agent
raised, a local model overflowed its context): the conversation ends and is scored as it stands.
Model clients, roles and modes all raise these, so they live below all of them.
"""

from __future__ import annotations

__all__ = ["AssistantError", "InfrastructureError"]


class InfrastructureError(Exception):
    """A model endpoint, user simulator or harness fault: not the assistant's failure."""


class AssistantError(Exception):
    """The assistant itself failed (e.g. a wrapped agent raised): scored as its failure."""
